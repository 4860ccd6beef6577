import { useQueryClient } from '@tanstack/react-query';
import type { Draft, DraftFields, DraftKind } from '@techit/contract/api-types';
import { useEffect, useRef, useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { type DraftConflict, DraftAutosaver, type DraftSaveStatus } from './draft-autosaver';
import { draftMirror, draftMirrorKey } from './draft-mirror';
import { deleteDraft, draftKeys, findEditDraft, getDraft, listDrafts } from './drafts-api';
import { useSession } from './session';

/** Which draft a new post's or notice's editor opens: the newest, a chosen one, or none. */
export type DraftChoice = { mode: 'resume' } | { mode: 'blank' } | { mode: 'open'; draftId: string };

interface DraftAutosaveOptions<TValues extends FieldValues> {
  form: Pick<UseFormReturn<TValues>, 'watch' | 'reset' | 'getValues'>;
  kind: DraftKind;
  /** The post being edited: its edit draft. */
  postId?: string;
  /** A new post's or notice's editor: which draft it opens (default: the newest). */
  choice?: DraftChoice;
  /** The form's values without a draft (empty, or the post being edited). */
  empty: TValues;
  toDraft: (values: TValues) => DraftFields;
  fromDraft: (fields: DraftFields, empty: TValues) => TValues;
  /** The draft this editor now writes (null: none yet), for a list that marks it. */
  onDraftId?: (draftId: string | null) => void;
}

export interface DraftAutosave {
  status: DraftSaveStatus;
  /** Why the server refused the last save (status `refused`). */
  reason: string | null;
  /** There is something to discard: a server draft, or text typed for one. */
  hasDraft: boolean;
  conflict: DraftConflict | null;
  keepMine: () => void;
  useTheirs: () => void;
  /** Call before sending the publish request: the `draftId` to send with it (the server deletes it). */
  beforePublish: () => Promise<string | undefined>;
  /** After the publish request: succeeded (the mirror goes) or failed (autosave goes on). */
  afterPublish: (succeeded: boolean) => void;
  /** Deletes the draft and empties the form. */
  discard: () => Promise<void>;
}

/**
 * Autosave for an editor bound to react-hook-form (docs/decisions/031-autosave-in-the-web-app.md):
 * restores the draft when the editor opens (this device's unsaved copy wins over the server's
 * when it is newer; a copy the server moved on from meanwhile opens the conflict dialog), then
 * mirrors every change to localStorage at once and saves it to the server after a pause.
 */
export function useDraftAutosave<TValues extends FieldValues>(options: DraftAutosaveOptions<TValues>): DraftAutosave {
  const { user } = useSession();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<DraftSaveStatus>('restoring');
  const [reason, setReason] = useState<string | null>(null);
  const [conflict, setConflict] = useState<DraftConflict | null>(null);
  const [hasDraft, setHasDraft] = useState(false);
  const saverRef = useRef<DraftAutosaver | null>(null);
  // The latest options, read by callbacks that outlive a render.
  const latest = useRef(options);
  latest.current = options;

  const userId = user?._id ?? null;
  const postId = options.postId ?? null;
  const choice = options.choice ?? { mode: 'resume' };
  const choiceKey = choice.mode === 'open' ? `open:${choice.draftId}` : choice.mode;
  const mirrorKey = userId ? draftMirrorKey(userId, options.kind, postId) : null;

  useEffect(() => {
    if (!mirrorKey) return;
    const { form, kind, toDraft, fromDraft, empty } = latest.current;
    const fieldsOf = (draft: DraftFields) => toDraft(fromDraft(draft, empty));
    const saver = new DraftAutosaver({
      kind,
      postId,
      mirrorKey,
      onStatus: (next, why) => {
        setStatus(next);
        setReason(why ?? null);
        setHasDraft(saver.currentDraftId !== null || next === 'pending' || next === 'saving' || next === 'offline');
        latest.current.onDraftId?.(saver.currentDraftId);
      },
      onConflict: setConflict,
      onSaved: (draft) => {
        latest.current.onDraftId?.(draft._id);
        // The create page's list follows without asking the server again.
        queryClient.setQueryData<Draft[]>(draftKeys.list(), (drafts) =>
          drafts ? [draft, ...drafts.filter((other) => other._id !== draft._id)] : drafts,
        );
      },
    });
    saverRef.current = saver;
    const subscription = form.watch((values) => saver.change(toDraft(values as TValues)));
    const typedBefore = JSON.stringify(toDraft(form.getValues()));
    let cancelled = false;

    const restore = async () => {
      const mirror = draftMirror.read(mirrorKey);
      // This device's copy counts only when the server has not got it yet.
      let local = choice.mode !== 'blank' && mirror?.dirty ? mirror : null;
      if (choice.mode === 'open' && local?.draftId !== choice.draftId) local = null;
      let server: Draft | null = null;
      let reached = true;
      try {
        if (postId) server = await findEditDraft(postId);
        else if (choice.mode === 'open') server = await getDraft(choice.draftId);
        else if (local?.draftId) server = await getDraft(local.draftId);
        else if (choice.mode === 'resume' && !local) {
          // The same request as the create page's list (one, not two), fresh.
          const drafts = await queryClient.fetchQuery({
            queryKey: draftKeys.list(),
            queryFn: listDrafts,
            staleTime: 0,
          });
          server = drafts.find((draft) => draft.kind === kind && draft.postId === null) ?? null;
        }
      } catch {
        reached = false;
      }
      if (cancelled) return;
      // Typed while the draft was being fetched: that text is this device's newest.
      const typed = toDraft(form.getValues());
      if (JSON.stringify(typed) !== typedBefore) local = { draftId: null, version: null, fields: typed, dirty: true };

      if (!reached) {
        // Offline: this device's copy, saved when the server answers again.
        const fallback = local ?? (choice.mode === 'blank' ? null : mirror);
        if (fallback) form.reset(fromDraft(fallback.fields, empty));
        saver.start(
          {
            draftId: fallback?.draftId ?? null,
            version: fallback?.version ?? null,
            // Unsaved here: the server is taken to hold nothing of it, so it is due.
            serverFields: fallback?.dirty ? {} : null,
          },
          toDraft(form.getValues()),
        );
        return;
      }
      if (local) {
        form.reset(fromDraft(local.fields, empty));
        const mine = toDraft(form.getValues());
        if (server && (local.draftId !== server._id || local.version !== server.version)) {
          // Both moved on: this device's unsent text and a newer save elsewhere. Never silently.
          saver.start({ draftId: server._id, version: server.version, serverFields: fieldsOf(server) }, mine, server);
        } else if (server) {
          saver.start({ draftId: server._id, version: server.version, serverFields: fieldsOf(server) }, mine);
        } else {
          // Never reached the server, or gone from it: a new draft.
          saver.start({ draftId: null, version: null, serverFields: toDraft(empty) }, mine);
        }
        return;
      }
      if (server) {
        form.reset(fromDraft(server, empty));
        saver.start({ draftId: server._id, version: server.version, serverFields: null }, toDraft(form.getValues()));
        return;
      }
      saver.start({ draftId: null, version: null, serverFields: null }, toDraft(form.getValues()));
    };
    void restore();

    return () => {
      cancelled = true;
      subscription.unsubscribe();
      saver.close();
      saverRef.current = null;
    };
    // The choice is keyed by its string; the form and mappers are read through `latest`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mirrorKey, postId, choiceKey, queryClient]);

  return {
    status,
    reason,
    hasDraft,
    conflict,
    keepMine: () => {
      if (conflict) saverRef.current?.keepMine(conflict.theirs);
    },
    useTheirs: () => {
      const saver = saverRef.current;
      if (!conflict || !saver) return;
      const { form, fromDraft, toDraft, empty } = latest.current;
      form.reset(fromDraft(conflict.theirs, empty));
      saver.useTheirs(conflict.theirs, toDraft(form.getValues()));
    },
    beforePublish: async () => {
      return (await saverRef.current?.hold()) ?? undefined;
    },
    afterPublish: (succeeded) => {
      const saver = saverRef.current;
      if (!saver) return;
      if (!succeeded) {
        saver.release();
        return;
      }
      saver.forget(latest.current.toDraft(latest.current.form.getValues()));
      saver.close();
      void queryClient.invalidateQueries({ queryKey: draftKeys.all });
    },
    discard: async () => {
      const saver = saverRef.current;
      if (!saver) return;
      const draftId = await saver.hold();
      try {
        if (draftId) await deleteDraft(draftId);
      } catch (error) {
        saver.release();
        throw error;
      }
      const { form, toDraft, empty } = latest.current;
      form.reset(empty);
      saver.forget(toDraft(form.getValues()));
      latest.current.onDraftId?.(null);
      queryClient.setQueryData<Draft[]>(draftKeys.list(), (drafts) => drafts?.filter((draft) => draft._id !== draftId));
    },
  };
}
