/** A commit sha as people read it: its first 7 characters (the whole of a shorter one). */
export function shortSha(sha: string): string {
  return sha.slice(0, 7);
}
