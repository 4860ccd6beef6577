/**
 * A count button's text: the number people see, and the words a screen reader or voice control
 * hears ("Like (2 likes)"), which include that number. Written out rather than as an aria-label,
 * which would name the button without its visible text (WCAG 2.5.3, label in name: axe's
 * label-content-name-mismatch); the whole name is one piece of text, so it reads the same in
 * every browser.
 */
export function CountName({ action, count, one, many }: { action: string; count: number; one: string; many: string }) {
  return (
    <>
      <span className="visually-hidden">
        {action} ({count} {count === 1 ? one : many})
      </span>
      <span aria-hidden>{count}</span>
    </>
  );
}
