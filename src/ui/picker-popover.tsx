import { Popover } from 'radix-ui';
import type { ReactNode } from 'react';
import { buttonClass } from './button';
import { ChevronDownIcon } from './icons';
import popover from './popover.module.css';

/**
 * The header pickers' shape: a trigger button named "<name>: <current value>" and a panel.
 * Pass `open`/`onOpenChange` to close the panel from inside (after a choice).
 */
export function PickerPopover({
  name,
  label,
  icon,
  panelClassName,
  open,
  onOpenChange,
  children,
}: {
  name: string;
  label: string;
  icon: ReactNode;
  panelClassName?: string | undefined;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  children: ReactNode;
}) {
  return (
    <Popover.Root
      {...(open === undefined ? {} : { open })}
      {...(onOpenChange ? { onOpenChange } : {})}
    >
      <Popover.Trigger
        className={`${buttonClass('secondary')} ${popover.trigger}`}
        aria-label={`${name}: ${label}`}
      >
        {icon}
        <span className={popover.triggerLabel}>{label}</span>
        <ChevronDownIcon className={popover.chevron} />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          className={`${popover.surface} ${panelClassName ?? ''}`}
          align="start"
          sideOffset={6}
          collisionPadding={12}
          aria-label={name}
        >
          {children}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
