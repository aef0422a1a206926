import { Popover } from 'radix-ui';
import type { ReactNode } from 'react';
import popover from './popover.module.css';

/** The panel of a Radix popover, in a portal, with the console's surface, offset and label. */
export function PopoverPanel({
  label,
  className,
  align = 'end',
  children,
}: {
  /** The panel's accessible name. */
  label: string;
  className?: string | undefined;
  align?: 'start' | 'end';
  children: ReactNode;
}) {
  return (
    <Popover.Portal>
      <Popover.Content
        className={`${popover.surface} ${className ?? ''}`}
        align={align}
        sideOffset={6}
        collisionPadding={12}
        aria-label={label}
      >
        {children}
      </Popover.Content>
    </Popover.Portal>
  );
}
