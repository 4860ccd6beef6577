import type { Draft, DraftFields, DraftKind } from '@techit/contract/api-types';
import type { DraftRow } from '../database/database.types';

/** The stored JSON, read defensively: only the known fields, each of its own type. */
export function parseDraftFields(json: string): DraftFields {
  const parsed: unknown = JSON.parse(json);
  if (typeof parsed !== 'object' || parsed === null) return {};
  const source = parsed as Record<string, unknown>;
  const fields: DraftFields = {};
  for (const name of ['title', 'desc', 'body', 'link1', 'link2', 'pic'] as const) {
    const value = source[name];
    if (typeof value === 'string') fields[name] = value;
  }
  if (typeof source.category === 'string') fields.category = source.category as DraftFields['category'];
  if (Array.isArray(source.tags)) fields.tags = source.tags.filter((tag): tag is string => typeof tag === 'string');
  if (Array.isArray(source.links))
    fields.links = source.links.filter((link): link is string => typeof link === 'string');
  return fields;
}

export function toDraft(row: DraftRow): Draft {
  return {
    _id: row.id,
    kind: row.kind as DraftKind,
    postId: row.post_id,
    version: row.version,
    ...parseDraftFields(row.fields),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
