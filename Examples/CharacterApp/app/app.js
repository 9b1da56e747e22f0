// The character browser: Home → Character list → Character detail, over a
// Rick-and-Morty-like API. Hand-written, no build step.
//
// Every element a test touches has a `data-testid` of the form
// `{screenName}.{elementType}` (RobotKit matches it like an accessibility
// identifier); rows propagate theirs to children: `characterList.row.1.title`.
'use strict';

// RobotKit passes the launch environment as query items: ?API_BASE_URL=http://127.0.0.1:PORT
const API_BASE_URL = (new URLSearchParams(location.search).get('API_BASE_URL') ||
  'https://rickandmortyapi.com/api').replace(/\/+$/, '');

const root = document.getElementById('app');

// MARK: - Routing

// How many in-app navigations Back can undo with history.back(); a deep link starts at 0,
// so its Back goes to the parent screen instead of leaving the app.
let depth = 0;
let goingBack = false;
// Bumped on every render: answers for a screen that is gone are dropped.
let screenToken = 0;

function parseRoute(hash) {
  const path = hash.replace(/^#/, '') || '/';
  if (path === '/') return { name: 'home' };
  if (path === '/characters') return { name: 'list' };
  const detail = /^\/character\/([1-9][0-9]*)$/.exec(path);
  if (detail) return { name: 'detail', id: Number(detail[1]) };
  return { name: 'notFound', path: path };
}

function navigate(path) {
  depth += 1;
  location.hash = '#' + path;
}

function goBack(parentPath) {
  goingBack = true;
  if (depth > 0) {
    depth -= 1;
    history.back();
  } else {
    location.replace('#' + parentPath);
  }
}

function goHome() {
  depth = 0;
  location.replace('#/');
}

function render() {
  const restoring = goingBack;
  goingBack = false;
  screenToken += 1;
  const route = parseRoute(location.hash);
  switch (route.name) {
    case 'home': return renderHome();
    case 'list': return renderList(restoring);
    case 'detail': return renderDetail(route.id);
    default: return renderNotFound(route.path);
  }
}

window.addEventListener('hashchange', render);

// MARK: - API

class ApiError extends Error {
  constructor(status, url) {
    super('HTTP ' + status + ' for ' + url);
    this.status = status;
  }
}

function apiURL(path, query) {
  const url = new URL(API_BASE_URL + path);
  for (const [name, value] of Object.entries(query || {})) url.searchParams.set(name, value);
  return url.toString();
}

async function getJSON(url) {
  const response = await fetch(url, { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new ApiError(response.status, url);
  return response.json();
}

// MARK: - Building blocks

function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value == null || value === false) continue;
    if (name === 'testid') element.dataset.testid = value;
    else if (name === 'class') element.className = value;
    else if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child == null || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

function show(title, ...children) {
  document.title = title + ' · Rick and Morty';
  root.replaceChildren(...children);
}

function navigationBar(title, onBack) {
  return h('header', { class: 'nav-bar' },
    onBack ? h('button', { class: 'nav-back', testid: 'navigationBar.backButton', 'aria-label': 'Back', onclick: onBack }, '‹ Back') : null,
    h('h1', { class: 'nav-title' }, title));
}

function statusClass(status) {
  const value = String(status || '').toLowerCase();
  return value === 'alive' || value === 'dead' ? 'status status-' + value : 'status';
}

function avatar(character, testid, size, className) {
  return h('img', {
    class: className, testid: testid, src: character.image, alt: character.name, width: size, height: size,
    onerror: (event) => event.target.removeAttribute('src')
  });
}

// MARK: - Home

function renderHome() {
  show('Home',
    navigationBar('Rick and Morty'),
    h('main', { class: 'screen centered', testid: 'home.view' },
      h('h2', { class: 'home-title' }, 'Welcome, traveller'),
      h('p', { class: 'muted' }, 'Browse every character of the multiverse.'),
      h('button', { class: 'button', testid: 'home.characterButton', onclick: () => navigate('/characters') }, 'Characters')));
}

// MARK: - Character list

// Kept while the list is in the navigation stack, so Back from a detail shows the
// same rows, search and scroll position; a forward navigation starts afresh.
const listState = { query: '', characters: [], next: null, loaded: false, scrollTop: 0 };
let listRequest = 0;
let searchTimer = null;

function renderList(restoring) {
  if (!restoring || !listState.loaded) {
    Object.assign(listState, { query: '', characters: [], next: null, loaded: false, scrollTop: 0 });
  }
  const content = h('div', { class: 'screen', testid: 'characterList.content' });
  const search = h('input', {
    class: 'search-field', type: 'search', testid: 'characterList.searchField', 'aria-label': 'Search characters',
    placeholder: 'Search by name', autocomplete: 'off', spellcheck: 'false',
    oninput: () => {
      clearTimeout(searchTimer);
      searchTimer = setTimeout(() => searchFor(search.value), 300);
    },
    onkeydown: (event) => {
      if (event.key !== 'Enter') return;
      clearTimeout(searchTimer);
      searchFor(search.value);
    }
  });
  search.value = listState.query;
  show('Characters',
    navigationBar('Characters', () => goBack('/')),
    h('main', { class: 'screen', testid: 'characterList.view' }, h('div', { class: 'search' }, search), content));
  if (listState.loaded) {
    showRows(content);
  } else {
    loadCharacters(content, false);
  }
}

function searchFor(text) {
  const query = text.trim();
  if (query === listState.query && listState.loaded) return;
  listState.query = query;
  const content = root.querySelector('[data-testid="characterList.content"]');
  if (content) loadCharacters(content, false);
}

async function loadCharacters(content, append) {
  const token = screenToken;
  const request = ++listRequest;
  const url = append ? listState.next : apiURL('/character', listState.query ? { name: listState.query } : {});
  if (append) {
    setLoadMoreBusy(content, true);
  } else {
    listState.loaded = false;
    content.replaceChildren(
      h('div', { class: 'centered' },
        h('p', { class: 'muted', role: 'status', testid: 'characterList.loadingIndicator' }, 'Loading characters…')));
  }
  let page;
  try {
    page = await getJSON(url);
  } catch (error) {
    if (token !== screenToken || request !== listRequest) return;
    // The Rick and Morty API answers a search without matches with 404.
    if (error instanceof ApiError && error.status === 404 && listState.query && !append) {
      page = { info: { next: null }, results: [] };
    } else {
      console.error('character list failed: ' + error.message);
      if (append) {
        setLoadMoreBusy(content, false, 'Could not load more characters.');
      } else {
        showListError(content);
      }
      return;
    }
  }
  if (token !== screenToken || request !== listRequest) return;
  const results = Array.isArray(page.results) ? page.results : [];
  listState.characters = append ? listState.characters.concat(results) : results;
  listState.next = (page.info && page.info.next) || null;
  listState.loaded = true;
  console.log('showing ' + listState.characters.length + ' characters' + (listState.query ? ' for "' + listState.query + '"' : ''));
  const scrollTop = append ? content.querySelector('.scroll').scrollTop : 0;
  showRows(content, scrollTop);
}

function showRows(content, scrollTop) {
  const scroll = h('div', {
    class: 'scroll', testid: 'characterList.scrollView',
    onscroll: (event) => { listState.scrollTop = event.target.scrollTop; }
  });
  if (listState.characters.length === 0) {
    scroll.append(h('div', { class: 'centered' },
      h('p', { class: 'muted', testid: 'characterList.emptyState' },
        listState.query ? 'No characters match “' + listState.query + '”.' : 'No characters yet.')));
  } else {
    scroll.append(h('ul', { class: 'rows', 'aria-label': 'Characters' }, listState.characters.map(characterRow)));
  }
  if (listState.next) {
    scroll.append(h('div', { class: 'load-more' },
      h('p', { class: 'error-text', role: 'alert', testid: 'characterList.loadMoreError', hidden: true }),
      h('button', { class: 'button', testid: 'characterList.loadMoreButton', onclick: () => loadCharacters(content, true) }, 'Load more')));
  }
  content.replaceChildren(scroll);
  scroll.scrollTop = scrollTop === undefined ? listState.scrollTop : scrollTop;
}

// A row is a list item whose title is a link stretched over the whole row (row-title::after):
// a click anywhere on the row follows it, the keyboard reaches it, and assistive technology
// hears a link in a list, while the image and status stay separate elements of the row.
function characterRow(character) {
  const id = 'characterList.row.' + character.id;
  const open = (event) => {
    event.preventDefault();
    navigate('/character/' + character.id);
  };
  return h('li', { class: 'row', testid: id },
    avatar(character, id + '.image', 56, 'row-image'),
    h('div', { class: 'row-text' },
      h('a', { class: 'row-title', href: '#/character/' + character.id, testid: id + '.title', onclick: open }, character.name),
      h('span', { class: statusClass(character.status), testid: id + '.status' }, character.status)));
}

function setLoadMoreBusy(content, busy, errorText) {
  const button = content.querySelector('[data-testid="characterList.loadMoreButton"]');
  const error = content.querySelector('[data-testid="characterList.loadMoreError"]');
  if (button) {
    button.disabled = busy;
    button.textContent = busy ? 'Loading…' : 'Load more';
  }
  if (error) {
    error.textContent = errorText || '';
    error.hidden = !errorText;
  }
}

function showListError(content) {
  content.replaceChildren(
    h('section', { class: 'centered', testid: 'characterList.errorView' },
      h('p', { class: 'error-text', role: 'alert', testid: 'characterList.errorLabel' }, 'Could not load characters.'),
      h('button', { class: 'button', testid: 'characterList.retryButton', onclick: () => loadCharacters(content, false) }, 'Retry')));
}

// MARK: - Character detail

async function renderDetail(id) {
  const token = screenToken;
  const screen = h('main', { class: 'screen', testid: 'characterDetail.view' });
  show('Character', navigationBar('Character', () => goBack('/characters')), screen);
  screen.append(h('div', { class: 'centered' },
    h('p', { class: 'muted', role: 'status', testid: 'characterDetail.loadingIndicator' }, 'Loading character…')));
  let character;
  try {
    character = await getJSON(apiURL('/character/' + id));
  } catch (error) {
    if (token !== screenToken) return;
    if (error instanceof ApiError && error.status === 404) {
      renderNotFound('/character/' + id);
      return;
    }
    console.error('character ' + id + ' failed: ' + error.message);
    screen.replaceChildren(
      h('section', { class: 'centered', testid: 'characterDetail.errorView' },
        h('p', { class: 'error-text', role: 'alert', testid: 'characterDetail.errorLabel' }, 'Could not load this character.'),
        h('button', { class: 'button', testid: 'characterDetail.retryButton', onclick: () => { screenToken += 1; renderDetail(id); } }, 'Retry')));
    return;
  }
  if (token !== screenToken) return;
  document.title = character.name + ' · Rick and Morty';
  const fact = (name, label, value) => [
    h('dt', {}, label),
    h('dd', { testid: 'characterDetail.' + name + 'Label' }, value || 'unknown')
  ];
  screen.replaceChildren(
    h('div', { class: 'scroll', testid: 'characterDetail.scrollView' },
      h('article', { class: 'detail' },
        avatar(character, 'characterDetail.image', 160, 'detail-image'),
        h('h2', { class: 'detail-name', testid: 'characterDetail.nameLabel' }, character.name),
        h('span', { class: statusClass(character.status), testid: 'characterDetail.statusLabel' }, character.status),
        h('dl', { class: 'facts' },
          fact('species', 'Species', character.species),
          fact('gender', 'Gender', character.gender),
          fact('origin', 'Origin', character.origin && character.origin.name),
          fact('location', 'Last known location', character.location && character.location.name)))));
}

// MARK: - Not found

function renderNotFound(path) {
  show('Not found',
    navigationBar('Not found'),
    h('main', { class: 'screen centered', testid: 'notFound.view' },
      h('h2', { testid: 'notFound.titleLabel' }, 'Nothing here'),
      h('p', { class: 'muted', testid: 'notFound.messageLabel' }, 'There is no page at ' + path + '.'),
      h('button', { class: 'button', testid: 'notFound.homeButton', onclick: goHome }, 'Go to home')));
}

render();
