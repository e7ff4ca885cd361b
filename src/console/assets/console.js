// Progressive enhancement for the console's server-rendered pages; every page works without it.
// Times are shown in the reader's own time zone, and secrets get a working Copy button.
for (const time of document.querySelectorAll('time[datetime]')) {
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
