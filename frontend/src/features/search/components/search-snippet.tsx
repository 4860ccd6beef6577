import { snippetParts } from '../snippet-parts';

/** A result's passage with its matched words marked (styled for both themes in search.css). */
export function SearchSnippet({ html, className }: { html: string; className?: string }) {
  return (
    <p className={className ? `search-snippet ${className}` : 'search-snippet'}>
      {snippetParts(html).map((part, index) =>
        part.marked ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>,
      )}
    </p>
  );
}
