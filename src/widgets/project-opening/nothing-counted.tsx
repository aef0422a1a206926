/** No project in the scope counts anything in the range: said as such, with what is missing. */
export function NothingCounted({
  projects,
  noun,
  consequence,
}: {
  projects: number;
  /** What is counted, after "a" and "no": e.g. "product action". */
  noun: string;
  /** e.g. "nothing to count yet" */
  consequence: string;
}) {
  return (
    <p>
      {projects === 1
        ? `The project has no ${noun}`
        : `None of these ${projects} projects has a ${noun}`}{' '}
      in this range, so there is {consequence}.
    </p>
  );
}
