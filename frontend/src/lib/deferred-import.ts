/** What counts as someone starting to use the page. */
const INTERACTIONS = ['pointerdown', 'keydown', 'touchstart', 'focusin'] as const;
/** How long after the load event an idle browser starts fetching deferred code by itself. */
const IDLE_AFTER_LOAD_MS = 3000;

export interface DeferredImport<T> {
  /** Starts the download now if it has not started; settles with the module. */
  load(): Promise<T>;
  /** Settles with the module once it has arrived, without starting the download. */
  ready: Promise<T>;
}

/**
 * Code that no first paint needs (menus, dialogs, toasts): kept out of the page's first download
 * and fetched on the first sign of someone using the page, when the browser is idle a while after
 * the page has loaded, or at once when something asks for it.
 */
export function deferredImport<T>(importModule: () => Promise<T>): DeferredImport<T> {
  let arrived: (module: T) => void = () => undefined;
  const ready = new Promise<T>((resolve) => {
    arrived = resolve;
  });
  let loading: Promise<T> | null = null;
  const load = (): Promise<T> => {
    stopListening();
    loading ??= importModule().then(
      (module) => {
        arrived(module);
        return module;
      },
      (error: unknown) => {
        // A failed download (offline) is tried again on the next request.
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  const onInteraction = (): void => void load().catch(() => undefined);
  function stopListening(): void {
    for (const type of INTERACTIONS) window.removeEventListener(type, onInteraction, true);
  }
  for (const type of INTERACTIONS) window.addEventListener(type, onInteraction, { capture: true, passive: true });
  const whenIdle = (): void => {
    window.setTimeout(() => {
      if ('requestIdleCallback' in window) window.requestIdleCallback(onInteraction);
      else onInteraction();
    }, IDLE_AFTER_LOAD_MS);
  };
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
  return { load, ready };
}
