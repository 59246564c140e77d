/** `1 change event`, `2 change events`: counts in CLI messages agree with their nouns. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
