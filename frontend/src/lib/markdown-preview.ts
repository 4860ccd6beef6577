import { useQuery } from '@tanstack/react-query';
import type { PreviewReply } from '@techit/contract/api-types';
import type { MarkdownKind } from '@techit/contract/enums';
import { api } from './api-client';

/** POST /api/preview: the HTML the server will store for this source on save (decision 025). */
export async function previewMarkdown(markdown: string, kind: MarkdownKind, signal?: AbortSignal): Promise<string> {
  return (await api<PreviewReply>('/preview', { method: 'POST', body: { markdown, kind }, signal })).html;
}

/**
 * The preview of `markdown` while `enabled` (the Preview tab is open). One request per source:
 * going back and forth between the tabs asks again only when the text has changed (the server
 * allows 60 previews a minute). A failure is shown in the Preview tab itself, so no toast.
 */
export function useMarkdownPreview(markdown: string, kind: MarkdownKind, enabled: boolean) {
  return useQuery({
    queryKey: ['markdown-preview', kind, markdown],
    queryFn: ({ signal }) => previewMarkdown(markdown, kind, signal),
    enabled: enabled && markdown.trim() !== '',
    staleTime: Infinity,
    gcTime: 5 * 60_000,
  });
}
