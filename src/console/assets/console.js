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
