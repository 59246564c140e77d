/** Turns invented names and template ids into URL-, host- and id-safe slugs. */

/** A lowercase ASCII slug of `text`: words joined by single hyphens, at most `maxLength` characters. */
export function slugify(text: string, maxLength = 60): string {
  const slug = text.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return slug.slice(0, maxLength).replace(/-+$/, '') || 'x';
}
