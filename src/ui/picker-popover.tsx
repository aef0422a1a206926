import { Popover } from 'radix-ui';
import type { ReactNode } from 'react';
import { buttonClass } from './button';
import { ChevronDownIcon } from './icons';
import popover from './popover.module.css';
import { PopoverPanel } from './popover-panel';

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
      <PopoverPanel label={name} className={panelClassName} align="start">
        {children}
      </PopoverPanel>
    </Popover.Root>
  );
}
