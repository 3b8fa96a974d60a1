/**
 * A tiny terminal for checking what a byte stream leaves on screen: printable text, `\n`, CR,
 * and the cursor and erase sequences our renderers use (CUP `H`, `A`/`B`/`G`, `K`/`2K`, `J`).
 * Colours (SGR) are ignored; any other sequence fails the test, so a renderer cannot lean on
 * something this model does not know. Lines never wrap here: the renderers keep them narrower.
 */
export class VirtualScreen {
	readonly rows: string[][];
	row = 0;
	column = 0;

	constructor(
		readonly columns: number,
		readonly height: number,
	) {
		this.rows = Array.from({length: height}, () => Array.from({length: columns}, () => ' '));
	}

	write(data: string): void {
		let index = 0;
		while (index < data.length) {
			const char = data[index]!;
			if (char === '\u001B') {
				const match = /^\u001B\[(\??)([\d;]*)([A-Za-z])/.exec(data.slice(index));
				if (!match) throw new Error(`unknown escape at ${index}: ${JSON.stringify(data.slice(index, index + 12))}`);
				this.#control(match[1] ?? '', match[2] ?? '', match[3]!);
				index += match[0].length;
				continue;
			}
			if (char === '\n') {
				this.row = Math.min(this.height - 1, this.row + 1);
				this.column = 0;
			} else if (char === '\r') {
				this.column = 0;
			} else {
				if (this.column < this.columns) this.rows[this.row]![this.column] = char;
				this.column++;
			}
			index++;
		}
	}

	text(): string {
		return this.rows.map((cells) => cells.join('').trimEnd()).join('\n').replace(/\n+$/, '');
	}

	#control(privateMarker: string, parameters: string, final: string): void {
		if (privateMarker) return; // modes: cursor visibility, synchronized output
		const numbers = parameters.split(';').map((value) => (value === '' ? undefined : Number(value)));
		const first = numbers[0];
		switch (final) {
			case 'm':
				return;
			case 'H':
				this.row = Math.min(this.height - 1, (first ?? 1) - 1);
				this.column = (numbers[1] ?? 1) - 1;
				return;
			case 'A':
				this.row = Math.max(0, this.row - (first ?? 1));
				return;
			case 'B':
				this.row = Math.min(this.height - 1, this.row + (first ?? 1));
				return;
			case 'G':
				this.column = (first ?? 1) - 1;
				return;
			case 'K': {
				const cells = this.rows[this.row]!;
				const from = first === 2 ? 0 : this.column;
				for (let column = from; column < this.columns; column++) cells[column] = ' ';
				return;
			}
			case 'J': {
				for (let row = this.row; row < this.height; row++) {
					const from = row === this.row ? this.column : 0;
					for (let column = from; column < this.columns; column++) this.rows[row]![column] = ' ';
				}
				return;
			}
			default:
				throw new Error(`the virtual screen does not know ESC[${parameters}${final}`);
		}
	}
}
