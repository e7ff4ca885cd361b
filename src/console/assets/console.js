// Progressive enhancement for the console's server-rendered pages; every page works without it.
// Times are shown in the reader's own time zone (but those said in a named zone, data-zone), and
// secrets get a working Copy button.
for (const time of document.querySelectorAll('time[datetime]:not([data-zone])')) {
  const at = new Date(time.getAttribute('datetime'));
  if (!Number.isNaN(at.getTime())) {
    time.textContent = at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    time.title = at.toISOString();
  }
}
for (const button of document.querySelectorAll('button[data-copy]')) {
  button.addEventListener('click', async () => {
    const text = document.getElementById(button.dataset.copy)?.textContent ?? '';
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Select and copy';
    }
  });
}
// Loading state: a sent form is marked busy (its button dimmed, the cursor waiting; nothing moves)
// and a second click sends nothing more. A page restored from the back-forward cache is not busy.
for (const form of document.querySelectorAll('form[method="post"]:not([data-import-steps])')) {
  form.addEventListener('submit', (event) => {
    if (event.defaultPrevented) return;
    if (form.getAttribute('aria-busy') === 'true') {
      event.preventDefault();
      return;
    }
    form.setAttribute('aria-busy', 'true');
  });
}
window.addEventListener('pageshow', () => {
  for (const form of document.querySelectorAll('form[aria-busy="true"]')) form.removeAttribute('aria-busy');
});

// Imports: the mapping form sends its import one step (1000 rows) per request and moves the
// progress bar; on any refusal it posts the form itself, and the page shows why where it belongs.
for (const form of document.querySelectorAll('form[data-import-steps]')) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const box = document.getElementById('import-progress-box');
    const bar = document.getElementById('import-progress');
    const status = document.getElementById('import-status');
    const button = form.querySelector('button[type="submit"]');
    if (button) button.disabled = true;
    if (box) box.hidden = false;
    const body = new URLSearchParams(new FormData(form));
    try {
      for (;;) {
        const answer = await fetch(form.action, {
          method: 'POST',
          body,
          credentials: 'same-origin',
          headers: { accept: 'application/json' },
        });
        if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
        const step = await answer.json();
        if (bar) {
          bar.max = step.rowCount;
          bar.value = step.rowsDone;
          bar.textContent = `${step.rowsDone} of ${step.rowCount}`;
        }
        if (status)
          status.textContent = `${step.rowsDone} of ${step.rowCount} rows sent, ${step.accepted} accepted so far.`;
        if (step.status === 'done') break;
      }
      window.location.assign(form.dataset.done);
    } catch {
      form.submit();
    }
  });
}

// The agent form's week (src/console/pages/agent.tsx): without a script each day has its windows
// and one empty row; with it, Add and Remove buttons, and each day's bar follows the times typed.
const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
const minutes = (time) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

function drawDay(day) {
  const bar = day.querySelector('.day-bar');
  if (!bar) return;
  bar.replaceChildren();
  for (const row of day.querySelectorAll('[data-window-row]')) {
    const [start, end] = row.querySelectorAll('input[type="time"]');
    if (!TIME.test(start.value) || !TIME.test(end.value)) continue;
    const from = minutes(start.value);
    // An end of 00:00 is the end of the day.
    const to = end.value === '00:00' ? 1440 : minutes(end.value);
    if (to <= from) continue;
    const span = document.createElement('span');
    span.className = 'window';
    span.style.left = `${(from / 1440) * 100}%`;
    span.style.width = `${((to - from) / 1440) * 100}%`;
    bar.append(span);
  }
}

function wireRow(day, row) {
  const remove = row.querySelector('[data-remove-window]');
  if (!remove) return;
  remove.hidden = false;
  remove.addEventListener('click', () => {
    const rows = day.querySelectorAll('[data-window-row]');
    const focusNext = day.querySelector('[data-add-window]');
    if (rows.length > 1) row.remove();
    else for (const input of row.querySelectorAll('input')) input.value = '';
    drawDay(day);
    focusNext?.focus();
  });
}

for (const day of document.querySelectorAll('[data-week-editor] fieldset[data-day]')) {
  const name = day.dataset.day;
  const list = day.querySelector('.window-rows');
  for (const row of day.querySelectorAll('[data-window-row]')) wireRow(day, row);
  day.addEventListener('input', () => drawDay(day));
  const add = day.querySelector('[data-add-window]');
  if (!add || !list) continue;
  add.hidden = false;
  add.addEventListener('click', () => {
    const rows = list.querySelectorAll('[data-window-row]');
    const template = rows[rows.length - 1];
    if (!template) return;
    // A fresh index past every row's: the server reads each day's rows in index order.
    const next = Math.max(...[...rows].map((r) => Number(r.querySelector('input').name.split('.')[1]))) + 1;
    const row = template.cloneNode(true);
    for (const input of row.querySelectorAll('input')) {
      const part = input.name.split('.')[2];
      input.name = `${name}.${next}.${part}`;
      input.id = `hours-${name}-${next}-${part}`;
      input.value = '';
      input.removeAttribute('aria-invalid');
      input.removeAttribute('aria-describedby');
    }
    for (const label of row.querySelectorAll('label')) {
      const part = label.htmlFor.endsWith('-start') ? 'start' : 'end';
      label.htmlFor = `hours-${name}-${next}-${part}`;
    }
    for (const hidden of row.querySelectorAll('.visually-hidden')) {
      hidden.textContent = hidden.textContent.replace(/\d+/, String(rows.length + 1));
    }
    list.append(row);
    wireRow(day, row);
    row.querySelector('input')?.focus();
  });
}

// A consent's "Obtained at" (src/console/pages/contact-calling.tsx): without a script it is on
// UTC's clock, as the page says; with one it is on the reader's own clock, and the form sends that
// zone with it. A form shown again after a refusal keeps the zone it was sent with.
const pad = (n) => String(n).padStart(2, '0');
for (const input of document.querySelectorAll('input[type="datetime-local"][data-zone-field]')) {
  const zoneField = document.getElementById(input.dataset.zoneField);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!zoneField || !zone || zoneField.value !== 'UTC' || zone === 'UTC') continue;
  if (input.value) {
    const at = new Date(`${input.value}Z`);
    if (Number.isNaN(at.getTime())) continue;
    input.value = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
  }
  zoneField.value = zone;
  for (const name of input.form?.querySelectorAll('[data-zone-name]') ?? []) name.textContent = zone;
}

// Contacts' Export CSV: without a script the link downloads the whole search in one answer; with
// one, the search is read a page per request, the count so far shown, and the pages saved as one
// file (each page after the first without its header line).
for (const link of document.querySelectorAll('a[data-csv-export]')) {
  link.addEventListener('click', async (event) => {
    event.preventDefault();
    if (link.getAttribute('aria-busy') === 'true') return;
    link.setAttribute('aria-busy', 'true');
    const box = document.getElementById('export-progress-box');
    const status = document.getElementById('export-status');
    if (box) box.hidden = false;
    const parts = [];
    let count = 0;
    let next = null;
    try {
      do {
        const url = new URL(link.href);
        url.searchParams.set('step', '1');
        if (next) url.searchParams.set('nextToken', next);
        const answer = await fetch(url, { credentials: 'same-origin' });
        if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
        const text = await answer.text();
        parts.push(parts.length === 0 ? text : text.slice(text.indexOf('\n') + 1));
        count += Number(answer.headers.get('x-page-contacts') ?? 0);
        next = answer.headers.get('x-next-token');
        if (status) status.textContent = `${count} contacts exported${next ? ', reading more…' : '.'}`;
      } while (next);
      const file = document.createElement('a');
      file.href = URL.createObjectURL(new Blob(parts, { type: 'text/csv' }));
      file.download = link.getAttribute('download') || 'contacts.csv';
      document.body.append(file);
      file.click();
      file.remove();
      setTimeout(() => URL.revokeObjectURL(file.href), 60_000);
      if (status) status.textContent = `${count} contacts exported to ${file.download}.`;
    } catch {
      if (status) status.textContent = 'The export stopped. Try again: the link downloads the whole search at once.';
    } finally {
      link.removeAttribute('aria-busy');
    }
  });
}

// An enrollment job's page (pages/enroll.tsx) while the job runs: read again every 1.5 s until it
// is done (without a script, its Check again link).
if (document.querySelector('[data-job-running]')) setTimeout(() => window.location.reload(), 1500);
