import { decodeCursor, type PageRequest } from './cursor';
import type { PageQueryDto } from './dto/page-query.dto';

export function toPageRequest(query: PageQueryDto, defaultLimit: number): PageRequest {
  const limit = query.limit ?? defaultLimit;
  if (query.cursor) return { limit, keyset: decodeCursor(query.cursor) };
  return { limit, offset: ((query.page ?? 1) - 1) * limit };
}
