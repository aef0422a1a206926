import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ALL_PROJECTS } from '../lib/project-scope';
import { ProjectScopePicker } from './project-scope-picker';

const projects = Array.from({ length: 10 }, (_, i) => ({
  id: `00000000-0000-4000-8000-00000000000${i}`,
  name: `Project ${String.fromCharCode(65 + i)}`,
  slug: `project-${String.fromCharCode(97 + i)}`,
}));

describe('ProjectScopePicker', () => {
  it('labels the button with the scope', () => {
    const { rerender } = render(
      <ProjectScopePicker projects={projects} value={ALL_PROJECTS} onChange={() => {}} />,
    );
    expect(screen.getByRole('button', { name: 'Project scope: All projects' })).toBeTruthy();
    rerender(
      <ProjectScopePicker
        projects={projects}
        value={{ kind: 'projects', ids: [projects[1]?.id ?? ''] }}
        onChange={() => {}}
      />,
    );
    expect(screen.getByRole('button', { name: 'Project scope: Project B' })).toBeTruthy();
  });

  it('checks projects, and searches when there are many', () => {
    const onChange = vi.fn();
    render(<ProjectScopePicker projects={projects} value={ALL_PROJECTS} onChange={onChange} />);
    fireEvent.click(screen.getByRole('button', { name: /Project scope/ }));
    expect(
      (screen.getByRole('checkbox', { name: 'All projects' }) as HTMLInputElement).checked,
    ).toBe(true);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search projects' }), {
      target: { value: 'project-c' },
    });
    expect(screen.queryByRole('checkbox', { name: 'Project A' })).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Project C' }));
    expect(onChange).toHaveBeenCalledWith({ kind: 'projects', ids: [projects[2]?.id] });
  });
});
