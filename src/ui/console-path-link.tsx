import { useNavigate } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { safeRedirect } from '../lib/safe-redirect';

/**
 * A link to a console path the service sent (an alert's `view_url`): followed inside the
 * console without a reload, opened in a new tab as a plain link. Anything but a same-origin
 * path (another origin, a script URL) is shown as text, never as a link.
 */
export function ConsolePathLink({
  path,
  children,
  className,
  onFollow,
}: {
  path: string;
  children: ReactNode;
  className?: string;
  onFollow?: () => void;
}) {
  const navigate = useNavigate();
  if (safeRedirect(path) !== path) return <span className={className}>{children}</span>;
  return (
    <a
      href={path}
      className={className}
      onClick={(e) => {
        if (
          e.defaultPrevented ||
          e.button !== 0 ||
          e.metaKey ||
          e.ctrlKey ||
          e.shiftKey ||
          e.altKey
        )
          return;
        e.preventDefault();
        onFollow?.();
        void navigate({ href: path });
      }}
    >
      {children}
    </a>
  );
}
