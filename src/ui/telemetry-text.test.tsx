import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TelemetryText } from './telemetry-text';

describe('TelemetryText', () => {
  it('shows a bidi override as a marked token that explains itself, never the control', () => {
    const { container } = render(
      <p>
        <TelemetryText text={'invoice report\u202Efdp.exe'} />
      </p>,
    );
    expect(container.textContent).toBe('invoice report⟨RLO⟩fdp.exe');
    expect(container.textContent).not.toContain('\u202E');
    const marker = screen.getByTitle(/^U\+202E RIGHT-TO-LEFT OVERRIDE: a text-direction control/);
    expect(marker.textContent).toBe('⟨RLO⟩');
  });

  it('leaves text without controls as it is', () => {
    const { container } = render(
      <p>
        <TelemetryText text="<b>not bold</b> עברית" />
      </p>,
    );
    expect(container.innerHTML).toBe('<p>&lt;b&gt;not bold&lt;/b&gt; עברית</p>');
  });
});
