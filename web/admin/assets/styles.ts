/** The pages' style sheet: system fonts, readable contrast (WCAG AA), a visible focus ring. */
export const ADMIN_CSS = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #4a5360; --line: #d5dae1; --bg: #f6f7f9; --accent: #0b5cad; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
.skip { position: absolute; left: -999px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.skip:focus { left: 8px; top: 8px; background: #fff; padding: 6px 10px; z-index: 10; }
.top { display: flex; gap: 24px; align-items: center; padding: 10px 24px; background: #14213d; color: #fff; }
.top a { color: #fff; }
.brand { font-weight: 700; text-decoration: none; }
.top nav { flex: 1; }
.logout { display: flex; gap: 10px; align-items: center; margin: 0; }
main { max-width: 1200px; margin: 0 auto; padding: 20px 24px 60px; }
h1 { font-size: 1.5rem; margin: 0 0 12px; }
h2 { font-size: 1.15rem; margin: 28px 0 8px; }
table { width: 100%; border-collapse: collapse; background: #fff; }
caption { text-align: left; font-weight: 600; padding: 6px 0; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #eef1f5; font-weight: 600; }
code, .mono { font-family: ui-monospace, monospace; font-size: 0.92em; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 0.85em; font-weight: 600; border: 1px solid; }
.badge.active { background: #e3eefb; color: #0a4b8c; border-color: #9cc0e8; }
.badge.done { background: #e4f4e8; color: #1d5e2f; border-color: #9fd0ab; }
.badge.undone { background: #f1f1f1; color: #3d3d3d; border-color: #c4c4c4; }
.badge.alarm { background: #fde8e7; color: #8a1c14; border-color: #eea49d; }
.notice { padding: 10px 14px; border-radius: 6px; margin: 0 0 14px; border: 1px solid; }
.notice.info { background: #e9f3fc; border-color: #9cc0e8; }
.notice.error { background: #fde8e7; border-color: #eea49d; }
.panel { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 14px 18px; margin: 0 0 16px; }
.attention { border-color: #eea49d; }
.panel > h2:first-child { margin-top: 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 18px; margin: 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
form.filters { display: flex; flex-wrap: wrap; gap: 10px 16px; align-items: end; }
label { display: block; font-weight: 600; margin-bottom: 2px; }
input, select, textarea, button { font: inherit; }
input[type=text], input[type=password], input[type=datetime-local], select, textarea { padding: 5px 7px; border: 1px solid #8a94a3; border-radius: 4px; background: #fff; }
textarea { width: 100%; min-height: 3.2em; }
button, .button { display: inline-block; padding: 6px 14px; border-radius: 4px; border: 1px solid #0b5cad; background: #0b5cad; color: #fff; cursor: pointer; text-decoration: none; }
button.danger { background: #a3261b; border-color: #a3261b; }
button.quiet, .button.quiet { background: #fff; color: #0b5cad; }
.field-error { color: #8a1c14; font-weight: 600; }
ol.steps { list-style: none; padding: 0; margin: 0; }
ol.steps li { padding: 6px 0 6px 26px; position: relative; border-left: 2px solid var(--line); margin-left: 8px; }
ol.steps li::before { content: ''; position: absolute; left: -7px; top: 11px; width: 12px; height: 12px; border-radius: 50%; background: var(--line); }
ol.steps li.done::before { background: #2e7d43; }
ol.steps li.current::before { background: #0b5cad; }
ol.steps li.failed::before { background: #a3261b; }
ol.steps li.pending { color: var(--muted); }
.detail { color: var(--muted); font-size: 0.9em; }
.actions { display: grid; grid-template-columns: repeat(auto-fit, minmax(280px, 1fr)); gap: 14px; }
fieldset { border: 1px solid var(--line); border-radius: 6px; padding: 10px 14px; margin: 0 0 12px; }
legend { font-weight: 600; }
.choice { display: flex; gap: 8px; align-items: start; margin: 4px 0; }
.choice label { font-weight: 400; }
.pager { display: flex; gap: 12px; align-items: center; margin-top: 10px; }
`;
