import { describe, expect, it } from 'vitest';
import { levelsOff, slopePer10Min, type SoakSample } from './soak';

/** A sample every 10 s for `minutes` of load, then 2 minutes idle. */
function run(
  minutes: number,
  at: (t: number) => { rss: number; heap: number; fds: number },
  idleFds: number,
): SoakSample[] {
  const sample = (t: number, phase: SoakSample['phase'], fds?: number): SoakSample => {
    const v = at(t);
    return {
      t,
      phase,
      rss_mb: v.rss,
      anonymous_mb: v.rss - 50,
      wal_index_mb: 0,
      heap_used_mb: v.heap,
      heap_total_mb: v.heap * 2,
      external_mb: 7,
      fds: fds ?? v.fds,
      fd_kinds: { socket: (fds ?? v.fds) - 30 },
      feed_connections: 26,
      events_acknowledged: t * 500,
      load_average: 1,
    };
  };
  const load = Array.from({ length: (minutes * 60) / 10 }, (_, i) => sample(i * 10, 'load'));
  const end = minutes * 60;
  return [
    sample(0, 'before', 44),
    ...load,
    ...Array.from({ length: 12 }, (_, i) => sample(end + (i + 1) * 10, 'idle', idleFds)),
  ];
}

describe('soak levels off', () => {
  it('measures a slope per 10 minutes', () => {
    expect(slopePer10Min([0, 60, 120].map((t) => ({ t, y: 100 + t / 60 })))).toBeCloseTo(10);
  });

  it('passes memory that rises while the page cache fills and then stays, with noise', () => {
    const l = levelsOff(
      run(
        30,
        (t) => ({
          rss: 200 + Math.min(150, t / 6) + ((t / 10) % 3),
          // A sawtooth: the client that never reads fills its backlog, is closed, is replaced.
          heap: 28 + ((t % 120) / 120) * 20,
          fds: 72 + ((t / 10) % 4),
        }),
        44,
      ),
    );
    expect(l).toMatchObject({ rss_ok: true, heap_ok: true, fds_ok: true });
  });

  it('fails a heap that keeps growing, and sockets left open after the load', () => {
    const l = levelsOff(run(30, (t) => ({ rss: 300 + t / 60, heap: 28 + t / 60, fds: 72 }), 50));
    expect(l.heap_ok).toBe(false);
    expect(l.heap_slope_mb_per_10_min).toBeCloseTo(10);
    expect(l).toMatchObject({ sockets_before: 14, sockets_idle: 20, fds_ok: false });
  });

  it('fails files that keep being opened during the load', () => {
    const samples = run(30, () => ({ rss: 300, heap: 28, fds: 72 }), 44);
    // One file more every 5 minutes (a log file reopened, a database handle not closed).
    for (const s of samples) if (s.phase === 'load') s.fds += Math.floor(s.t / 300);
    expect(levelsOff(samples)).toMatchObject({ heap_ok: true, fds_ok: false });
  });
});
