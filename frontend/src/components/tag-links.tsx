import { Link } from 'react-router-dom';
import { paths } from '../config/paths';
import './tag-links.css';

/**
 * A post's tags as links to their pages (`/t/:name`), in the author's order; nothing when it has
 * none. A list, so a screen reader says how many there are; each link reads "#name" as it shows.
 */
export function TagLinks({ tags }: { tags: readonly string[] }) {
  if (tags.length === 0) return null;
  return (
    <ul className="tag-links" aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag}>
          <Link to={paths.tag(tag)} className="tag-link">
            #{tag}
          </Link>
        </li>
      ))}
    </ul>
  );
}
