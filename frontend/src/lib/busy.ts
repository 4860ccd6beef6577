/**
 * A button's `loading` for work that may end within a frame (a form failing validation): shown
 * only once it has lasted a moment. Without the delay the spinner flashes, and Ant Design can leave
 * its half-started leave animation (and its "loading" label) inside the button.
 */
export function busy(pending: boolean): boolean | { delay: number } {
  return pending && { delay: 150 };
}
