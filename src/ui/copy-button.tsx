import { useEffect, useState } from 'react';
import { Button } from './button';
import { CheckIcon, CopyIcon } from './icons';

/**
 * Copies a value to the clipboard and says so. When the clipboard is not available (an
 * insecure origin, a refused permission) it says that instead, so the person selects the text.
 */
export function CopyButton({
  value,
  label = 'Copy',
  copiedLabel = 'Copied',
}: {
  value: string;
  label?: string;
  copiedLabel?: string;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
  };

  return (
    <Button size="sm" onClick={() => void copy()} aria-live="polite">
      {state === 'copied' ? <CheckIcon /> : <CopyIcon />}
      {state === 'copied' ? copiedLabel : state === 'failed' ? 'Select and copy' : label}
    </Button>
  );
}
