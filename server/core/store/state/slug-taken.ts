/**
 * A create lost its slug to a concurrent create (another request or instance took it
 * between the route's check and the write); nothing was written, and the route picks the
 * next free slug, as it would have had the two run one after the other.
 */
export class SlugTakenError extends Error {
  constructor(slug: string) {
    super(`slug ${slug} was taken concurrently`);
    this.name = 'SlugTakenError';
  }
}
