import { snippetParts } from '../../frontend/src/features/search/snippet-parts';

/** How the results page reads a search snippet (frontend/src/features/search/snippet-parts.ts; decision 037). */
describe('search snippets (frontend/src/features/search/snippet-parts.ts)', () => {
  it('splits the text at <mark> and decodes the escaped characters the server sends', () => {
    expect(
      snippetParts('…a &#60;b&#62; &amp; <mark>Kubernetes</mark> &#34;guide&#39;s&#34; <mark>kubernetes</mark>…'),
    ).toEqual([
      { text: '…a <b> & ', marked: false },
      { text: 'Kubernetes', marked: true },
      { text: ' "guide\'s" ', marked: false },
      { text: 'kubernetes', marked: true },
      { text: '…', marked: false },
    ]);
  });

  it('keeps anything that is not a <mark> as text, so it can never become markup', () => {
    expect(snippetParts('<img src=x onerror=alert(1)><mark>x</mark>&lt;script&gt;')).toEqual([
      { text: '<img src=x onerror=alert(1)>', marked: false },
      { text: 'x', marked: true },
      { text: '<script>', marked: false },
    ]);
    expect(snippetParts('&#x1F600; &bogus; &#0;')).toEqual([{ text: '\u{1F600} &bogus; &#0;', marked: false }]);
  });
});
