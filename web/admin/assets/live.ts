/**
 * The pages' one script, progressive enhancement only: each `[data-live]` region is fetched again
 * from its `data-live` address every `data-live-every` ms and replaced when it changed, so a list
 * or a migration's steps follow the plane without a reload. Without it the pages work as they are,
 * with a Refresh link. A region stops once it says `data-live-final`; a region the administrator is
 * typing in waits; a session that ended shows a note instead of the login page.
 */
export const LIVE_SCRIPT = `(() => {
  const typing = (region) => {
    const active = document.activeElement;
    if (active && active !== document.body && region.contains(active) && active.matches('input, textarea, select')) return true;
    return [...region.querySelectorAll('textarea, input[type=text]')].some((f) => f.value !== f.defaultValue);
  };
  const ended = (region) => {
    const note = document.createElement('p');
    note.className = 'notice error';
    note.setAttribute('role', 'alert');
    note.textContent = 'Your session has ended: reload the page to sign in again.';
    region.prepend(note);
  };
  const follow = (region) => {
    if (region.hasAttribute('data-live-final')) return;
    const every = Number(region.dataset.liveEvery) || 2000;
    setTimeout(async () => {
      let next = region;
      try {
        if (!document.hidden && !typing(region)) {
          const answer = await fetch(region.dataset.live, {
            headers: { Accept: 'text/html', 'X-Live-Refresh': '1' },
            credentials: 'same-origin',
            cache: 'no-store',
          });
          if (answer.status === 401) return ended(region);
          if (answer.ok) {
            const template = document.createElement('template');
            template.innerHTML = (await answer.text()).trim();
            const fresh = template.content.firstElementChild;
            if (fresh && fresh.outerHTML !== region.outerHTML) {
              region.replaceWith(fresh);
              next = fresh;
            }
          }
        }
      } catch {
        // A failed fetch is tried again at the next tick.
      }
      follow(next);
    }, every);
  };
  const start = () => document.querySelectorAll('[data-live]').forEach(follow);
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
`;
