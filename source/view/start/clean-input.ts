/**
 * What a person types or pastes into a one-line field: newlines and tabs become spaces (the field
 * is one line), other control characters are dropped (the field is echoed on screen as typed).
 */
export function cleanFieldInput(text: string): string {
	return text.replaceAll(/[\t\r\n]+/g, ' ').replaceAll(/[\u0000-\u001F\u007F-\u009F]/g, '');
}
