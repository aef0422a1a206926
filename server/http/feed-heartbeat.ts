import type { WebSocket } from 'ws';

/**
 * The live feed's heartbeat message (an extension; the spec tells clients to skip types they
 * do not know). Browsers answer WebSocket pings by themselves but never show them to the page,
 * so this message is what lets the console notice a connection that went silent.
 */
export function heartbeatMessage(intervalSeconds: number): string {
  return JSON.stringify({ type: 'heartbeat', data: { interval_seconds: intervalSeconds } });
}

/**
 * Pings the connection every `intervalMs` and sends the heartbeat message with it. A
 * connection that has not answered the previous ping by the next one is gone (a proxy dropped
 * it, a laptop went to sleep): it is ended (`end`, by default `terminate`), which closes it
 * and so detaches its subscriber. Returns what stops the heartbeat.
 */
export function keepAlive(
  ws: WebSocket,
  intervalMs: number,
  onSilent: () => void,
  end: () => void = () => ws.terminate(),
): () => void {
  let answered = true;
  const onPong = () => {
    answered = true;
  };
  ws.on('pong', onPong);
  const message = heartbeatMessage(intervalMs / 1000);
  const timer = setInterval(() => {
    if (!answered) {
      stop();
      onSilent();
      end();
      return;
    }
    answered = false;
    try {
      ws.ping();
      ws.send(message);
    } catch {
      // Closing already: its close event detaches it.
    }
  }, intervalMs);
  timer.unref();
  function stop() {
    clearInterval(timer);
    ws.off('pong', onPong);
  }
  return stop;
}
