/**
 * A count button's text: the number people see, inside the words a screen reader or voice control
 * hears ("Like (2 likes)"). Written out rather than as an aria-label, so that the visible number is
 * part of the button's name (WCAG 2.5.3, label in name: axe's label-content-name-mismatch).
 */
export function CountName({ action, count, one, many }: { action: string; count: number; one: string; many: string }) {
  return (
    <>
      <span className="visually-hidden">{action} (</span>
      {count}
      <span className="visually-hidden"> {count === 1 ? one : many})</span>
    </>
  );
}
