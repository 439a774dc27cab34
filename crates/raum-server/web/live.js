// The game's live updates: a WebSocket that pushes each state (docs/api.md),
// reconnecting with a growing wait after a drop; the first message after
// connecting is the whole truth.

export class Live {
  /** url: the socket's address; on: {open(), state(state, first), closed(), message()} */
  constructor(url, on) {
    this.url = url;
    this.on = on;
    this.delay = 250;
    this.open = false;
    this.stopped = false;
    this.connect();
    window.addEventListener('online', () => this.retryNow());
  }

  connect() {
    clearTimeout(this.timer);
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    let first = true;
    ws.onopen = () => {
      this.open = true;
      this.delay = 250;
      this.on.open();
    };
    ws.onmessage = (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      this.on.message();
      if (msg && msg.type === 'state') {
        this.on.state(msg.state, first);
        first = false;
      }
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.open = false;
      this.ws = null;
      if (this.stopped) return;
      this.scheduleRetry();
      this.on.closed();
    };
    ws.onerror = () => {};
  }

  scheduleRetry() {
    clearTimeout(this.timer);
    const wait = this.delay * (0.8 + Math.random() * 0.4);
    this.delay = Math.min(this.delay * 2, 8000);
    this.timer = setTimeout(() => this.connect(), wait);
  }

  retryNow() {
    if (!this.open) {
      this.delay = 250;
      this.connect();
    }
  }

  /** As a network drop: the socket closes and the page reconnects. */
  drop() {
    if (this.ws) this.ws.close(4000, 'dropped');
  }
}

/** The connection badge: live, reconnecting, ... */
export function setConn(conn, state) {
  conn.dataset.state = state;
  conn.querySelector('.conn-text').textContent = {live: 'live', reconnecting: 'reconnecting…', connecting: 'connecting', offline: 'offline'}[state] || state;
  conn.title = state === 'live' ? 'Live: moves arrive as they are made' : 'Connection lost: reconnecting';
}
