/**
 * The console page's script: the connect token from the page's fragment (never sent to a server,
 * dropped from the address at once), a WebSocket to the gateway, and xterm.js drawing what the
 * console prints and sending what is typed. The gateway's news (text frames) set the status line.
 */
export const CONSOLE_SCRIPT = `
(() => {
  const token = decodeURIComponent(location.hash.slice(1));
  history.replaceState(null, '', location.pathname);
  const status = document.getElementById('status');
  const say = (state, text) => { status.dataset.state = state; status.textContent = text; };
  const term = new Terminal({ cursorBlink: true, scrollback: 5000 });
  term.open(document.getElementById('terminal'));
  term.focus();
  if (!token) return say('ended', 'No connect token: open the console from the panel again.');
  const socket = new WebSocket(document.body.dataset.gateway);
  socket.binaryType = 'arraybuffer';
  socket.onopen = () => socket.send(JSON.stringify({ connect_token: token }));
  socket.onmessage = (event) => {
    if (typeof event.data !== 'string') return term.write(new Uint8Array(event.data));
    const news = JSON.parse(event.data);
    if (news.type === 'validated') say('validated', 'Waiting for the instance’s console…');
    if (news.type === 'connected') say('connected', 'Connected');
    if (news.type === 'ended') say('ended', 'Session ended: ' + news.reason);
  };
  socket.onclose = () => { if (status.dataset.state !== 'ended') say('ended', 'Session ended'); };
  const encoder = new TextEncoder();
  term.onData((data) => { if (socket.readyState === WebSocket.OPEN) socket.send(encoder.encode(data)); });
})();
`;
