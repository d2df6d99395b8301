import { load, save } from './storage.js';

const form = document.querySelector('#entry');
const list = document.querySelector('#cups');
let cups = load('cups', []);

function render() {
  list.replaceChildren(
    ...cups.map((cup) => {
      const item = document.createElement('li');
      const stars = '★'.repeat(cup.rating) + '☆'.repeat(5 - cup.rating);
      item.innerHTML = `<strong></strong> <span class="meta"></span><p></p>`;
      item.querySelector('strong').textContent = cup.bean;
      item.querySelector('.meta').textContent = `${cup.method} · ${stars} · ${new Date(cup.at).toLocaleDateString()}`;
      item.querySelector('p').textContent = cup.notes;
      return item;
    }),
  );
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const data = new FormData(form);
  cups = [
    { bean: data.get('bean'), method: data.get('method'), rating: Number(data.get('rating')), notes: data.get('notes'), at: Date.now() },
    ...cups,
  ];
  save('cups', cups);
  form.reset();
  render();
});

render();
