// How a decided card and the audit name an operator: the username beside the platform id, since a username is
// chosen by its owner and may imitate someone else's name or id (the id is what peer groups authorise).
import { visibleText } from './visible-text.ts';

export function operatorLabel(by: { user: string; name?: string | undefined }): string {
  const name = by.name === undefined ? '' : visibleText(by.name);
  const user = visibleText(by.user);
  return name === '' || name === user ? user : `${name} (${user})`;
}
