import type { Draft, DraftFields, DraftKind } from '@techit/contract/api-types';
import { ApiError } from './api-client';
import { draftMirror } from './draft-mirror';
import { conflictDraft, createDraft, saveDraft } from './drafts-api';

/**
 * What the editor says about its draft: `pending` (changed, the save is due) and `saving` both
 * read "Saving…"; `offline` (the save failed; retried) and `refused` (the server said no) keep the
 * text on this device; `conflict` waits for the person to choose (use-draft-autosave.ts).
 */
export type DraftSaveStatus =
  'idle' | 'restoring' | 'pending' | 'saving' | 'saved' | 'offline' | 'refused' | 'conflict';

/** A save found the draft changed elsewhere: what this editor holds, and what the server holds. */
export interface DraftConflict {
  mine: DraftFields;
  theirs: Draft;
}

interface AutosaverOptions {
  kind: DraftKind;
  postId: string | null;
  mirrorKey: string;
  onStatus(status: DraftSaveStatus, reason?: string): void;
  onConflict(conflict: DraftConflict | null): void;
  onSaved(draft: Draft): void;
}

/**
 * The last keystroke is saved this long after it: the issue asks for the server to have it
 * within 3 s, which leaves a second for the request on a slow line.
 */
export const SAVE_DEBOUNCE_MS = 1500;
/** Typing without a pause still saves this often. */
const SAVE_MAX_WAIT_MS = 10_000;
const RETRY_FIRST_MS = 3000;
const RETRY_MAX_MS = 30_000;

/**
 * One editor's saves of one draft: every change goes to the localStorage mirror at once and to
 * the server after a pause; one save in flight at a time (a change meanwhile is saved right after
 * it); a failed save retried with a growing delay; a 409 stops saving until the person chooses.
 * Plain TypeScript, no React: use-draft-autosave.ts binds it to a form.
 */
export class DraftAutosaver {
  private draftId: string | null = null;
  private version: number | null = null;
  /** What the form holds now. */
  private latest: DraftFields = {};
  /** What the server holds (serialized); a save is due while `latest` differs. */
  private saved = '';
  private started = false;
  private inFlight: Promise<void> | null = null;
  private queued = false;
  /** While a conflict waits for a choice, or a publish runs: no saves. */
  private paused = false;
  private closed = false;
  private debounce: ReturnType<typeof setTimeout> | undefined;
  private maxWait: ReturnType<typeof setTimeout> | undefined;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private retryDelay = RETRY_FIRST_MS;
  private status: DraftSaveStatus = 'restoring';

  constructor(private readonly options: AutosaverOptions) {
    window.addEventListener('online', this.onOnline);
    document.addEventListener('visibilitychange', this.onHidden);
  }

  get currentDraftId(): string | null {
    return this.draftId;
  }

  /**
   * The restored state: the draft the form now shows (`draftId`/`version`, null for none yet),
   * what the server holds (`serverFields`; null: nothing), and the form's fields.
   */
  start(
    state: { draftId: string | null; version: number | null; serverFields: DraftFields | null },
    fields: DraftFields,
    /** The server's copy moved on since this device's unsaved one: nothing is saved until the person chooses. */
    theirs?: Draft,
  ) {
    if (this.closed) return;
    this.draftId = state.draftId;
    this.version = state.version;
    this.saved = state.serverFields ? JSON.stringify(state.serverFields) : JSON.stringify(fields);
    this.latest = fields;
    this.started = true;
    if (theirs) {
      this.writeMirror(true);
      this.conflict(theirs);
    } else if (this.isDue()) {
      this.writeMirror(true);
      this.save();
    } else {
      if (state.draftId) this.writeMirror(false);
      this.setStatus(state.draftId ? 'saved' : 'idle');
    }
  }

  /** Every change of the form: mirrored at once (synchronously), saved after a pause. */
  change(fields: DraftFields): void {
    if (this.closed) return;
    this.latest = fields;
    if (!this.started) return;
    const due = this.isDue();
    // Nothing typed yet on a page without a draft: no mirror, no draft.
    if (due || this.draftId) this.writeMirror(due);
    if (this.paused) return;
    if (!due) {
      this.clearTimers();
      if (!this.inFlight && this.status !== 'offline') this.setStatus(this.draftId ? 'saved' : 'idle');
      return;
    }
    if (this.status !== 'offline') this.setStatus(this.inFlight ? 'saving' : 'pending');
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => this.save(), SAVE_DEBOUNCE_MS);
    this.maxWait ??= setTimeout(() => this.save(), SAVE_MAX_WAIT_MS);
  }

  /** A save, or the restore, found the draft changed elsewhere: no saves until the person chooses. */
  private conflict(theirs: Draft): void {
    this.paused = true;
    this.setStatus('conflict');
    this.options.onConflict({ mine: this.latest, theirs });
  }

  /** "Keep mine": saved over the stored version. */
  keepMine(theirs: Draft): void {
    this.draftId = theirs._id;
    this.version = theirs.version;
    // Saved even when both hold the same text: the stored draft gets this editor's version.
    this.saved = '';
    this.paused = false;
    this.options.onConflict(null);
    this.writeMirror(true);
    this.save();
  }

  /** "Use the other version": the form now holds `fields` (the stored draft's). */
  useTheirs(theirs: Draft, fields: DraftFields): void {
    this.draftId = theirs._id;
    this.version = theirs.version;
    this.latest = fields;
    this.saved = JSON.stringify(fields);
    this.paused = false;
    this.options.onConflict(null);
    this.writeMirror(false);
    this.setStatus('saved');
  }

  /** Before publishing: no more saves, the one in flight finished; the draft's id for `draftId`. */
  async hold(): Promise<string | null> {
    this.paused = true;
    this.clearTimers();
    while (this.inFlight) await this.inFlight;
    return this.draftId;
  }

  /** Publishing failed: saving goes on. */
  release(): void {
    this.paused = false;
    if (this.isDue()) this.save();
  }

  /** Published (the server deleted the draft) or discarded: the mirror goes, the editor starts afresh. */
  forget(fields: DraftFields): void {
    draftMirror.clear(this.options.mirrorKey);
    this.draftId = null;
    this.version = null;
    this.latest = fields;
    this.saved = JSON.stringify(fields);
    this.paused = false;
    this.options.onConflict(null);
    this.setStatus('idle');
  }

  /** The editor is leaving: what is due is sent now; the mirror holds it either way. */
  close(): void {
    if (this.closed) return;
    if (this.started && !this.paused && this.isDue()) {
      // After the save in flight, if there is one: it brings the version this one needs.
      if (this.inFlight) void this.inFlight.then(() => this.send());
      else this.save();
    }
    this.closed = true;
    this.clearTimers();
    clearTimeout(this.retry);
    window.removeEventListener('online', this.onOnline);
    document.removeEventListener('visibilitychange', this.onHidden);
  }

  private readonly onOnline = () => {
    if (this.status === 'offline') this.save();
  };

  /** A phone may kill a tab it has put away: what is due is sent now, not after the pause. */
  private readonly onHidden = () => {
    if (document.visibilityState === 'hidden' && this.started && !this.paused && this.isDue()) this.save();
  };

  private isDue(): boolean {
    return JSON.stringify(this.latest) !== this.saved;
  }

  private clearTimers(): void {
    clearTimeout(this.debounce);
    clearTimeout(this.maxWait);
    this.debounce = undefined;
    this.maxWait = undefined;
  }

  private setStatus(status: DraftSaveStatus, reason?: string): void {
    this.status = status;
    if (!this.closed) this.options.onStatus(status, reason);
  }

  private writeMirror(dirty: boolean): void {
    if (this.closed) return;
    draftMirror.write(this.options.mirrorKey, {
      draftId: this.draftId,
      version: this.version,
      fields: this.latest,
      dirty,
    });
  }

  /** One save at a time: asked while one runs, it runs again when that one ends. */
  private save(): void {
    this.clearTimers();
    clearTimeout(this.retry);
    if (this.inFlight) {
      this.queued = true;
      return;
    }
    // Not before the restore has said which draft this is (a publish may be pressed that early).
    if (this.closed || !this.started || this.paused || !this.isDue()) return;
    this.inFlight = this.send().finally(() => {
      this.inFlight = null;
      if (this.queued && !this.closed) {
        this.queued = false;
        this.save();
      }
    });
  }

  private async send(): Promise<void> {
    const fields = this.latest;
    const serialized = JSON.stringify(fields);
    if (!this.closed) this.setStatus('saving');
    try {
      const draft =
        this.draftId !== null && this.version !== null
          ? await saveDraft(this.draftId, this.version, fields)
          : await createDraft(this.options.kind, this.options.postId, fields);
      this.draftId = draft._id;
      this.version = draft.version;
      this.saved = serialized;
      this.retryDelay = RETRY_FIRST_MS;
      if (this.closed) return;
      this.options.onSaved(draft);
      // Typed meanwhile: its own debounce saves it.
      const due = this.isDue();
      this.writeMirror(due);
      // A publish started meanwhile says what it says.
      if (!this.paused) this.setStatus(due ? 'pending' : 'saved');
    } catch (error) {
      if (this.closed) return;
      const stored = conflictDraft(error);
      if (stored) {
        this.conflict(stored);
        return;
      }
      if (error instanceof ApiError && error.status === 404 && this.draftId !== null) {
        // Published or discarded elsewhere: what is typed here becomes a new draft.
        this.draftId = null;
        this.version = null;
        this.queued = true;
        return;
      }
      if (
        error instanceof ApiError &&
        error.status >= 400 &&
        error.status < 500 &&
        ![408, 429].includes(error.status)
      ) {
        // Refused (too long, the session ended): asking again would get the same answer; the
        // next change tries again.
        this.setStatus('refused', error.message);
        return;
      }
      this.setStatus('offline');
      this.retry = setTimeout(() => this.save(), this.retryDelay);
      this.retryDelay = Math.min(this.retryDelay * 2, RETRY_MAX_MS);
    }
  }
}
