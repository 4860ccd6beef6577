import { decodeExtendedJson } from './extended-json';
import { parseExportFile } from './mongo-export-reader';
import { MongoImportError } from './mongo-import-error';

const ID = '64b7f0c2a1b2c3d4e5f60718';

describe('decodeExtendedJson', () => {
  it('reads ObjectIds, canonical and relaxed dates and wrapped numbers (Extended JSON v2 and v1)', () => {
    const decoded = decodeExtendedJson({
      _id: { $oid: ID },
      canonical: { $date: { $numberLong: '1700000000123' } },
      relaxed: { $date: '2023-11-14T22:13:20.123Z' },
      legacy: { $date: 1700000000123 },
      count: { $numberInt: '7' },
      long: { $numberLong: '9007199254740991' },
      double: { $numberDouble: '-Infinity' },
      nested: [{ postedBy: { $oid: ID } }],
    });
    expect(decoded).toEqual({
      _id: ID,
      canonical: new Date(1700000000123),
      relaxed: new Date(1700000000123),
      legacy: new Date(1700000000123),
      count: 7,
      long: 9007199254740991,
      double: -Infinity,
      nested: [{ postedBy: ID }],
    });
  });

  it('leaves wrappers it does not know, and objects that only look like one, as objects', () => {
    expect(decodeExtendedJson({ pic: { $binary: { base64: 'AA==', subType: '00' } } })).toEqual({
      pic: { $binary: { base64: 'AA==', subType: '00' } },
    });
    expect(decodeExtendedJson({ a: { $oid: ID, extra: 1 } })).toEqual({ a: { $oid: ID, extra: 1 } });
  });

  it('keeps a "__proto__" field as a plain field instead of changing the prototype', () => {
    const decoded = decodeExtendedJson(JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('parseExportFile', () => {
  const doc = (n: number): string => JSON.stringify({ _id: { $oid: ID.slice(0, 22) + String(n).padStart(2, '0') } });

  it('reads one document per line, a --jsonArray array and --pretty documents alike, each with its line', () => {
    const lines = `${doc(1)}\n\n${doc(2)}\n`;
    const array = `[${doc(1)},\n${doc(2)}]`;
    const pretty = `${JSON.stringify(JSON.parse(doc(1)), null, 2)}\n${JSON.stringify(JSON.parse(doc(2)), null, 2)}\n`;
    for (const text of [lines, array, pretty, `\ufeff${lines}`]) {
      const documents = parseExportFile('users.json', text);
      expect(documents.map((d) => d.fields._id)).toEqual([`${ID.slice(0, 22)}01`, `${ID.slice(0, 22)}02`]);
    }
    expect(parseExportFile('users.json', lines).map((d) => d.source)).toEqual([
      'users.json line 1',
      'users.json line 3',
    ]);
    expect(parseExportFile('users.json', pretty)[1]?.source).toBe('users.json line 6');
  });

  it('reads an empty file, or an empty array, as no documents', () => {
    expect(parseExportFile('notices.json', '')).toEqual([]);
    expect(parseExportFile('notices.json', ' [ ]\n')).toEqual([]);
  });

  it('names the file and line of a malformed document', () => {
    const cases: [string, RegExp][] = [
      [`${doc(1)}\n{"_id": 1,}\n${doc(3)}`, /^posts\.json line 2: not valid JSON/],
      [`${doc(1)}\n{"_id": {"$oid": "${ID}"}\n`, /^posts\.json line 2: the document starting here never ends/],
      [`${doc(1)}\nnot json\n`, /^posts\.json line 2: expected a document \("\{"\), found "n"/],
      [`[${doc(1)}\n`, /^posts\.json line 2: the "\[" of --jsonArray is never closed/],
      [`[${doc(1)}]\n${doc(2)}`, /^posts\.json line 2: unexpected "\{" after the closing "\]"/],
      [`{"$oid": "${ID}"}`, /^posts\.json line 1: not a document/],
    ];
    for (const [text, message] of cases) {
      expect(() => parseExportFile('posts.json', text)).toThrow(MongoImportError);
      expect(() => parseExportFile('posts.json', text)).toThrow(message);
    }
  });

  it('is not confused by braces, brackets and escaped quotes inside strings', () => {
    const tricky = JSON.stringify({ _id: ID, desc: 'a } ] "quoted" \\ { [' });
    expect(parseExportFile('posts.json', `${tricky}\n${tricky}`).map((d) => d.fields.desc)).toEqual([
      'a } ] "quoted" \\ { [',
      'a } ] "quoted" \\ { [',
    ]);
  });
});
