import type {ServerResponse} from 'node:http';
import {crc32} from 'node:zlib';

/**
 * A zip archive with stored (uncompressed) entries: what the agent server's trajectory download
 * sends, small enough to write by hand (PKWARE APPNOTE 4.3: local headers, central directory,
 * end record). The simulator has no other use for zip, so no library for it.
 */
export function storedZip(files: ReadonlyArray<{name: string; data: Buffer}>): Buffer {
	const locals: Buffer[] = [];
	const centrals: Buffer[] = [];
	let offset = 0;
	for (const file of files) {
		const name = Buffer.from(file.name, 'utf8');
		const crc = crc32(file.data);
		const local = Buffer.alloc(30);
		local.writeUInt32LE(0x04034b50, 0);
		local.writeUInt16LE(20, 4); // version needed
		local.writeUInt16LE(0x0800, 6); // UTF-8 names
		local.writeUInt16LE(0, 8); // stored
		local.writeUInt32LE(crc, 14);
		local.writeUInt32LE(file.data.length, 18);
		local.writeUInt32LE(file.data.length, 22);
		local.writeUInt16LE(name.length, 26);
		locals.push(local, name, file.data);
		const central = Buffer.alloc(46);
		central.writeUInt32LE(0x02014b50, 0);
		central.writeUInt16LE(20, 4);
		central.writeUInt16LE(20, 6);
		central.writeUInt16LE(0x0800, 8);
		central.writeUInt32LE(crc, 16);
		central.writeUInt32LE(file.data.length, 20);
		central.writeUInt32LE(file.data.length, 24);
		central.writeUInt16LE(name.length, 28);
		central.writeUInt32LE(offset, 42);
		centrals.push(central, name);
		offset += local.length + name.length + file.data.length;
	}
	const directory = Buffer.concat(centrals);
	const end = Buffer.alloc(22);
	end.writeUInt32LE(0x06054b50, 0);
	end.writeUInt16LE(files.length, 8);
	end.writeUInt16LE(files.length, 10);
	end.writeUInt32LE(directory.length, 12);
	end.writeUInt32LE(offset, 16);
	return Buffer.concat([...locals, directory, end]);
}

/** Answers 200 with the stored zip of `files`, as a download named `filename` (both servers' trajectory routes). */
export function sendZip(response: ServerResponse, filename: string, files: ReadonlyArray<{name: string; data: Buffer}>): void {
	const zip = storedZip(files);
	response.writeHead(200, {
		'content-type': 'application/zip',
		'content-length': String(zip.length),
		'content-disposition': `attachment; filename="${filename}"`,
	});
	response.end(zip);
}
