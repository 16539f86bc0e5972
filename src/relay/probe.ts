import WebSocket from 'ws';

/** True when something accepts a WebSocket at `url` within the time limit. */
export function relayAnswers(url: string, timeoutMs = 1_500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { handshakeTimeout: timeoutMs });
    const done = (answer: boolean) => {
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.terminate();
      resolve(answer);
    };
    socket.once('open', () => done(true));
    socket.once('error', () => done(false));
  });
}

export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}
