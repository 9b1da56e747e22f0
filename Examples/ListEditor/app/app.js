// The list editor: add, edit, check, delete and filter items kept by a REST backend
// (GET/POST/PATCH/DELETE /todos). Hand-written, no build step, no framework.
//
// The server is the source of truth: a change shows once the backend has accepted it, so a
// failing backend leaves the list as it was and says so. Writes go out one at a time, in the
// order the user made them, so the backend (and a test's request journal) sees that order.
'use strict';

// RobotKit passes the launch environment as query items: ?API_BASE_URL=http://127.0.0.1:PORT.
// Without it the app talks to the server it came from.
const API_BASE_URL = (new URLSearchParams(location.search).get('API_BASE_URL') || location.origin)
  .replace(/\/+$/, '');

const view = {
  newItem: document.querySelector('.new-item'),
  error: document.querySelector('.error'),
  errorText: document.querySelector('.error-text'),
  retry: document.querySelector('.retry'),
  loading: document.querySelector('.loading'),
  items: document.querySelector('.items'),
  toggleAll: document.querySelector('.toggle-all'),
  list: document.querySelector('.list'),
  footer: document.querySelector('.footer'),
  count: document.querySelector('.count'),
  filters: document.querySelectorAll('.filters a'),
  clearCompleted: document.querySelector('.clear-completed'),
};

const state = { items: [], loaded: false, editing: null };

// MARK: - Backend

async function api(method, path, body) {
  const response = await fetch(API_BASE_URL + path, {
    method,
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(method + ' ' + path + ' answered ' + response.status);
  const text = await response.text();
  return text ? JSON.parse(text) : null;
}

// One write at a time, in order (see the top of the file). A failed write does not stop the
// ones queued after it: each says for itself whether it worked.
let writes = Promise.resolve();
function enqueue(write) {
  writes = writes.then(write, write);
  return writes;
}

function showError(message, canRetry) {
  view.errorText.textContent = message;
  view.retry.hidden = !canRetry;
  view.error.hidden = false;
}

function clearError() {
  view.error.hidden = true;
}

async function load() {
  view.loading.hidden = false;
  clearError();
  try {
    state.items = await api('GET', '/todos');
    state.loaded = true;
  } catch (error) {
    showError('Could not load your list.', true);
  }
  view.loading.hidden = true;
  render();
}

// MARK: - Changes

function add(title) {
  return enqueue(async () => {
    try {
      state.items.push(await api('POST', '/todos', { title, completed: false }));
      clearError();
    } catch (error) {
      // The field was emptied when Enter was pressed; give the text back unless the user
      // has started the next item meanwhile.
      if (!view.newItem.value) view.newItem.value = title;
      showError('Could not add "' + title + '".', false);
    }
    render();
  });
}

function update(item, changes) {
  return enqueue(async () => {
    try {
      Object.assign(item, await api('PATCH', '/todos/' + item.id, changes));
      clearError();
    } catch (error) {
      showError('Could not save "' + item.title + '".', false);
    }
    render();
  });
}

function remove(item) {
  return enqueue(async () => {
    try {
      await api('DELETE', '/todos/' + item.id);
      state.items = state.items.filter((other) => other !== item);
      clearError();
    } catch (error) {
      showError('Could not delete "' + item.title + '".', false);
    }
    render();
  });
}

// Ends the edit of `item`: saves the new title (an emptied title deletes the item, as in
// TodoMVC) or, when `save` is false, drops it. Enter, Escape and blur all end here; only the
// first counts, since re-rendering removes the field and may blur it once more.
function finishEdit(item, field, save) {
  if (state.editing !== item.id) return;
  state.editing = null;
  const title = field.value.trim();
  if (save && !title) remove(item);
  else if (save && title !== item.title) update(item, { title });
  render();
}

// MARK: - Rendering

function currentFilter() {
  const route = location.hash.replace(/^#\/?/, '');
  return route === 'active' || route === 'completed' ? route : 'all';
}

function isShown(item, filter) {
  if (filter === 'active') return !item.completed;
  if (filter === 'completed') return item.completed;
  return true;
}

function itemRow(item) {
  const row = document.createElement('li');
  row.className = 'item' + (item.completed ? ' completed' : '');
  row.dataset.testid = 'listEditor.item.' + item.id;

  const toggle = document.createElement('input');
  toggle.type = 'checkbox';
  toggle.className = 'toggle';
  toggle.checked = item.completed;
  toggle.dataset.testid = row.dataset.testid + '.toggle';
  toggle.setAttribute('aria-label', 'Toggle ' + item.title);
  toggle.addEventListener('change', () => {
    const completed = toggle.checked;
    toggle.checked = item.completed; // shows the backend's answer, not the click (top of the file)
    update(item, { completed });
  });
  row.append(toggle);

  if (state.editing === item.id) {
    const field = document.createElement('input');
    field.className = 'edit';
    field.value = item.title;
    field.dataset.testid = row.dataset.testid + '.editField';
    field.setAttribute('aria-label', 'Edit ' + item.title);
    field.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') finishEdit(item, field, true);
      else if (event.key === 'Escape') finishEdit(item, field, false);
    });
    field.addEventListener('blur', () => finishEdit(item, field, true));
    row.append(field);
  } else {
    const title = document.createElement('span');
    title.className = 'item-title';
    title.textContent = item.title;
    title.dataset.testid = row.dataset.testid + '.title';
    title.addEventListener('dblclick', () => {
      state.editing = item.id;
      render();
    });
    row.append(title);
  }

  const destroy = document.createElement('button');
  destroy.className = 'destroy';
  destroy.textContent = '×';
  destroy.dataset.testid = row.dataset.testid + '.delete';
  destroy.setAttribute('aria-label', 'Delete ' + item.title);
  destroy.addEventListener('click', () => remove(item));
  row.append(destroy);
  return row;
}

function render() {
  const filter = currentFilter();
  const left = state.items.filter((item) => !item.completed).length;
  const any = state.loaded && state.items.length > 0;

  view.items.hidden = !any;
  view.footer.hidden = !any;
  view.list.replaceChildren(...state.items.filter((item) => isShown(item, filter)).map(itemRow));
  view.toggleAll.checked = any && left === 0;
  view.count.textContent = left + (left === 1 ? ' item left' : ' items left');
  view.clearCompleted.hidden = left === state.items.length;
  for (const link of view.filters) {
    if (link.getAttribute('href') === '#/' + (filter === 'all' ? '' : filter)) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }

  const field = view.list.querySelector('.edit');
  if (field) {
    field.focus();
    field.setSelectionRange(field.value.length, field.value.length);
  }
}

// MARK: - Events

view.newItem.addEventListener('keydown', (event) => {
  if (event.key !== 'Enter') return;
  const title = view.newItem.value.trim();
  if (!title) return;
  view.newItem.value = '';
  add(title);
});

view.toggleAll.addEventListener('change', () => {
  const completed = view.toggleAll.checked;
  // Checked once every item is done on the backend, not at the click: a second click before
  // the answers then still means "complete all".
  view.toggleAll.checked = !completed;
  for (const item of state.items.filter((each) => each.completed !== completed)) update(item, { completed });
});

view.clearCompleted.addEventListener('click', () => {
  for (const item of state.items.filter((each) => each.completed)) remove(item);
});

view.retry.addEventListener('click', load);

// Filters are hash routes, so each is an entry in the browser's history: Back and Forward
// move between them.
window.addEventListener('hashchange', render);

load();
