import { describe, expect, it } from 'vitest';
import { createLiveStore } from './live-store';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const log = (id: string) => ({
  type: 'native_log' as const,
  data: { id, project_id: A, message: id },
});

describe('live store', () => {
  it('follows the connection: connecting, live, reconnecting with a time, live again', () => {
    const store = createLiveStore();
    const s = () => store.getState();
    expect(s().status).toBe('connecting');
    s().attemptStarted();
    expect(s().status).toBe('connecting');
    s().connectionOpened();
    expect(s()).toMatchObject({ status: 'live', reconnects: 0 });

    s().connectionLost();
    s().retryScheduled(5_000);
    expect(s()).toMatchObject({ status: 'reconnecting', nextRetryAt: 5_000 });
    s().attemptStarted();
    expect(s()).toMatchObject({ status: 'reconnecting', nextRetryAt: null });
    s().connectionOpened();
    expect(s()).toMatchObject({ status: 'live', reconnects: 1, nextRetryAt: null });

    s().feedPaused();
    expect(s().status).toBe('paused');
  });

  it('counts unseen events, merges by id, and forgets everything when stopped', () => {
    const store = createLiveStore();
    const s = () => store.getState();
    s().messageReceived([log('1'), log('2')]);
    s().messageReceived([log('2')]);
    expect(s().entries.size).toBe(2);
    expect(s().unseen[A]).toBe(2);
    s().eventsSeen([A]);
    expect(s().unseen[A]).toBeUndefined();

    s().connectionOpened();
    s().connectionOpened();
    s().feedStopped();
    expect(s()).toMatchObject({ status: 'stopped', reconnects: 0, unseen: {} });
    expect(s().entries.size).toBe(0);
  });
});
