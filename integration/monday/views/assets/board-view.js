// The board view's enhancement inside monday (the page is complete without it): monday's SDK
// (monday-sdk-js, served by this service) gives the view's context and a fresh sessionToken.
// Follows monday's theme, says so when the view is open on a board Contactline does not map,
// and refreshes with a new sessionToken (the one in the address expires after a few minutes).
(() => {
  if (typeof window.mondaySdk !== 'function' || window.parent === window) return;
  const monday = window.mondaySdk();
  const applyContext = (context) => {
    if (!context) return;
    if (context.theme) document.documentElement.dataset.theme = context.theme;
    const mapped = document.body.dataset.mappedBoard;
    const note = document.getElementById('other-board');
    if (note && mapped && context.boardId && String(context.boardId) !== mapped) note.hidden = false;
  };
  monday.get('context').then((answer) => applyContext(answer?.data));
  monday.listen('context', (answer) => applyContext(answer?.data));

  /** Reloads the view with a fresh sessionToken from monday. */
  const reload = async () => {
    const answer = await monday.get('sessionToken');
    if (typeof answer?.data !== 'string') return false;
    const url = new URL(window.location.href);
    url.searchParams.set('sessionToken', answer.data);
    url.searchParams.set('refreshed', '1');
    window.location.replace(url.toString());
    return true;
  };
  document.getElementById('refresh')?.addEventListener('click', async (event) => {
    event.preventDefault();
    if (!(await reload())) window.location.reload();
  });
  // An expired token (a view left open): one fresh try, never a loop.
  const refused = document.querySelector('[data-retry="true"]');
  if (refused && !new URL(window.location.href).searchParams.has('refreshed')) reload();
})();
