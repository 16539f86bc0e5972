import type WebSocket from 'ws';

export interface HeartbeatSettings {
  /** A WebSocket ping this often. */
  frequencyMs: number;
  /** A ping whose pong has not come back this long after it declares the peer dead. */
  timeoutMs: number;
}

export interface HeartbeatHooks {
  pong(): void;
  dead(): void;
}

/**
 * WebSocket pings on one open connection. A relay that completed the handshake and then stopped answering
 * (stuck process, paused socket, a middlebox that lost the flow) leaves the TCP connection open for as long
 * as the kernel keeps it, and a subscription on it hears nothing while looking live: a pong missing past its
 * deadline calls `dead` once. Returns the function that stops the pings.
 */
export function startHeartbeat(
  socket: WebSocket,
  settings: HeartbeatSettings,
  hooks: HeartbeatHooks,
): () => void {
  let deadline: NodeJS.Timeout | null = null;
  const onPong = () => {
    if (deadline) clearTimeout(deadline);
    deadline = null;
    hooks.pong();
  };
  const stop = () => {
    clearInterval(interval);
    if (deadline) clearTimeout(deadline);
    deadline = null;
    socket.off('pong', onPong);
  };
  const interval = setInterval(() => {
    // A ping still waiting for its pong: its own deadline decides, a second ping would only move it.
    if (deadline) return;
    deadline = setTimeout(() => {
      stop();
      hooks.dead();
    }, settings.timeoutMs);
    socket.ping();
  }, settings.frequencyMs);
  socket.on('pong', onPong);
  return stop;
}
