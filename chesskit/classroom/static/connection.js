// chesskit classroom: a page talking to the service. Hub mode: the hub's cookie, with the
// _xsrf header; laptop mode: the session token (kept in the browser, so a reload or a lost
// connection comes back as the same student). Every URL is relative to the page.
const CKConnection = (role) => {
  const params = new URLSearchParams(location.search);
  const store = role === "teacher" ? sessionStorage : localStorage;
  const key = "chesskit-classroom-" + role;
  let token = params.get("token") || store.getItem(key) || "";
  if (params.get("token")) {
    store.setItem(key, token);
    params.delete("token"); // never leave the teacher's token on a projected address bar
    history.replaceState(null, "", location.pathname + (params.toString() ? "?" + params : ""));
  }
  const pick = (name) => {
    const n = (name || "").toLowerCase();
    if (/^zh[-_](tw|hk|mo|hant)/.test(n)) return "zh-Hant";
    if (n.startsWith("zh")) return "zh-Hans";
    return CK_TEXTS[name] ? name : "en";
  };
  let lang = pick(store.getItem(key + "-lang") || navigator.language || "en");
  const xsrf = () => {
    const m = document.cookie.match(/(?:^|;\s*)_xsrf=([^;]*)/);
    return m ? decodeURIComponent(m[1]) : "";
  };
  const api = async (method, path, body) => {
    const headers = { "Content-Type": "application/json" };
    if (token) headers.Authorization = "token " + token;
    if (xsrf()) headers["X-XSRFToken"] = xsrf();
    const url = path + (path.includes("?") ? "&" : "?") + "lang=" + encodeURIComponent(lang);
    try {
      const r = await fetch(url, { method, headers, credentials: "same-origin",
        body: body === undefined ? undefined : JSON.stringify(body) });
      let data = null;
      try { data = await r.json(); } catch (_) { /* an empty body */ }
      return { status: r.status, ok: r.ok, data: data || {} };
    } catch (_) {
      return { status: 0, ok: false, data: { error: tx("offline") } };
    }
  };
  // the events: reconnects after 1 s, backing off to 10 s; onState(true|false) on (dis)connect;
  // returns send(message): true when it went on the open socket, false when there is none
  const events = (onMessage, onState) => {
    let wait = 1000, socket = null, pinger = null;
    const open = () => {
      const url = new URL("api/events", location.href);
      url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
      if (token) url.searchParams.set("token", token);
      url.searchParams.set("lang", lang);
      socket = new WebSocket(url);
      socket.onopen = () => { wait = 1000; onState(true); };
      socket.onmessage = (e) => { try { onMessage(JSON.parse(e.data)); } catch (_) { /* not JSON */ } };
      socket.onclose = () => {
        onState(false);
        clearInterval(pinger);
        setTimeout(open, wait);
        wait = Math.min(wait * 2, 10000);
      };
      clearInterval(pinger);
      pinger = setInterval(() => { if (socket.readyState === 1) socket.send('{"type":"ping"}'); }, 25000);
    };
    open();
    return (message) => {
      if (!socket || socket.readyState !== 1) return false;
      try { socket.send(JSON.stringify(message)); return true; } catch (_) { return false; }
    };
  };
  const tx = (k) => (CK_TEXTS[lang] || CK_TEXTS.en)[k] || CK_TEXTS.en[k] || k;
  return {
    api, events, tx,
    token: () => token,
    setToken: (t) => { token = t; store.setItem(key, t); },
    forget: () => { token = ""; store.removeItem(key); },
    lang: () => lang,
    setLang: (l) => { lang = pick(l); store.setItem(key + "-lang", lang); document.documentElement.lang = lang; },
    pick,
  };
};
