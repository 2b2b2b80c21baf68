// Runs portico_restlet.js under Node with stand-ins for the N/ modules it
// uses, so restlet_test.go can check it answers as the test double does.
// Not for deployment.
//
// stdin: {"files": [{"id", "name", "fileType", "isText", "contents",
//                    "documentSizeKB", "modified", "recordType", "recordId"}],
//         "searches": {"customsearch_x": {"columns": [{"label", "name", "join"}],
//                                          "rows": [[{"text", "value"}]]}},
//         "records": [{"recordType", "family": "entity"|"transaction"|"custom", "id", "rectype"}],
//         "uploadFolder": 17,
//         "calls": [{"method": "GET"|"POST", "args": {...}}]}
// stdout: [{"status": 200|400, "body": ...}] in call order, errors as
// NetSuite wraps them: {"error": {"code", "message"}}.
'use strict';
const path = require('path');

const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));

class SuiteScriptError extends Error {
    constructor(name, message) {
        super(message);
        this.name = name;
    }
}

const byId = new Map(input.files.map((f) => [String(f.id), f]));
const targets = input.records || [];
const notes = []; // {id, externalid, ...fields}
const saved = []; // files saved by the script: {id, description, ...}
const attached = []; // [file id, record type, record id]

// A record the note's link field or record.attach names, or undefined.
const target = (family, type, id) => targets.find((r) => (!family || r.family === family) &&
    (!type || r.recordType.toLowerCase() === type.toLowerCase()) && String(r.id) === String(id));

// A file as file.load returns it: contents are base64 for binary types.
const loaded = (f) => ({
    id: Number(f.id),
    name: f.name,
    fileType: f.fileType,
    isText: f.isText,
    size: f.isText ? Buffer.byteLength(f.contents, 'utf8') : Buffer.from(f.contents, 'base64').length,
    getContents: () => f.contents,
});

const resultSet = (rows) => ({
    getRange: ({start, end}) => {
        if (end - start > 1000) throw new SuiteScriptError('SSS_INVALID_SRCH_RANGE', 'getRange takes at most 1000 results');
        return rows.slice(start, end);
    },
});

const mocks = {
    'N/error': {create: ({name, message}) => new SuiteScriptError(name, message)},
    'N/encode': {
        Encoding: {UTF_8: 'UTF_8', BASE_64: 'BASE_64'},
        convert: ({string, inputEncoding, outputEncoding}) => {
            if (inputEncoding === 'UTF_8' && outputEncoding === 'BASE_64') return Buffer.from(string, 'utf8').toString('base64');
            if (inputEncoding === 'BASE_64' && outputEncoding === 'UTF_8') return Buffer.from(string, 'base64').toString('utf8');
            throw new Error('unexpected encode.convert');
        },
    },
    'N/file': {
        create: (opts) => {
            if (!opts.name || !opts.fileType) throw new SuiteScriptError('SSS_MISSING_REQD_ARGUMENT', 'file.create: name, fileType');
            const size = opts.fileType === 'PLAINTEXT' || opts.fileType === 'CSV'
                ? Buffer.byteLength(opts.contents, 'utf8') : Buffer.from(opts.contents, 'base64').length;
            if (size > 10 * 1024 * 1024) throw new SuiteScriptError('SSS_FILE_CONTENT_SIZE_EXCEEDED', 'over 10 MB');
            return {
                save: () => {
                    if (!opts.folder) throw new SuiteScriptError('SSS_MISSING_REQD_ARGUMENT', 'Please enter value(s) for: Folder');
                    // The next internal id of the File Cabinet.
                    const id = Math.max(0, ...input.files.map((f) => f.id), ...saved.map((f) => f.id)) + 1;
                    saved.push({id: id, ...opts, isText: opts.fileType === 'PLAINTEXT' || opts.fileType === 'CSV'});
                    return id;
                },
            };
        },
        load: ({id}) => {
            const f = byId.get(String(id)) || saved.find((x) => String(x.id) === String(id));
            if (!f) throw new SuiteScriptError('RCRD_DSNT_EXIST', 'That record does not exist.');
            return loaded(f);
        },
    },
    'N/format': {
        Type: {DATETIME: 'datetime'},
        parse: ({value}) => new Date(value),
    },
    'N/record': {
        Type: {NOTE: 'note'},
        create: ({type}) => {
            if (type !== 'note') throw new Error('unexpected record.create ' + type);
            const values = {};
            return {
                setValue: ({fieldId, value}) => {
                    const family = {entity: 'entity', transaction: 'transaction', record: 'custom'}[fieldId];
                    if (family && !target(family, null, value)) {
                        throw new SuiteScriptError('INVALID_KEY_OR_REF', 'Invalid ' + fieldId + ' reference key ' + value + '.');
                    }
                    values[fieldId] = value;
                },
                save: () => {
                    if (!values.note) throw new SuiteScriptError('USER_ERROR', 'Please enter value(s) for: Memo');
                    const id = notes.length + 1;
                    notes.push({id: id, ...values});
                    return id;
                },
            };
        },
        load: ({type, id}) => {
            const r = target(null, type, id);
            if (!r) throw new SuiteScriptError('RCRD_DSNT_EXIST', 'That record does not exist.');
            return {getValue: ({fieldId}) => (fieldId === 'rectype' ? r.rectype : undefined)};
        },
        attach: ({record, to}) => {
            if (record.type !== 'file' || !saved.some((f) => f.id === record.id)) {
                throw new SuiteScriptError('SSS_MISSING_REQD_ARGUMENT', 'record.attach: record');
            }
            if (!target(null, to.type, to.id)) throw new SuiteScriptError('RCRD_DSNT_EXIST', 'That record does not exist.');
            attached.push([record.id, to.type, to.id]);
        },
    },
    'N/runtime': {
        getCurrentScript: () => ({
            getRemainingUsage: () => 1000,
            getParameter: ({name}) => (name === 'custscript_portico_upload_folder' ? input.uploadFolder || null : null),
        }),
    },
    'N/search': {
        Summary: {GROUP: 'group'},
        Sort: {ASC: 'ASC'},
        createColumn: (c) => c,
        create: ({type, filters, columns}) => {
            if (type === 'note' || type === 'file') {
                // The additions' idempotency lookups: one filter, "is"/"anyof" a value.
                const [field, , value] = filters[0];
                const found = type === 'note'
                    ? notes.filter((n) => field === 'externalid' && n.externalid === value)
                    : saved.filter((f) => field === 'description' && f.description === value);
                const rows = found.map((x) => ({getValue: () => String(x.id)}));
                return {run: () => resultSet(rows)};
            }
            const types = new Set(input.files.map((f) => f.recordType.toLowerCase()));
            if (!types.has(type)) throw new SuiteScriptError('SSS_INVALID_SRCH_TYPE', 'An nlobjSearch contains an invalid search type: ' + type);
            const recordId = String(filters[0][2]);
            const values = (f) => ({
                internalid: String(f.id), name: f.name, filetype: f.fileType,
                documentsize: String(f.documentSizeKB), modified: f.modified || '',
            });
            const rows = input.files
                .filter((f) => f.recordType.toLowerCase() === type && String(f.recordId) === recordId)
                .sort((a, b) => a.id - b.id)
                .map((f) => ({getValue: (c) => values(f)[c.name], getText: () => null}));
            return {run: () => resultSet(rows)};
        },
        load: ({id}) => {
            const s = input.searches[id];
            if (!s) throw new SuiteScriptError('INVALID_SEARCH', 'That search or mass update does not exist.');
            const rows = s.rows.map((cells) => ({
                getText: (c) => cells[s.columns.indexOf(c)].text,
                getValue: (c) => cells[s.columns.indexOf(c)].value,
            }));
            return {columns: s.columns, run: () => resultSet(rows)};
        },
    },
};

let restlet;
global.define = (deps, factory) => {
    restlet = factory(...deps.map((d) => {
        if (!mocks[d]) throw new Error('no stand-in for ' + d);
        return mocks[d];
    }));
};
require(path.join(__dirname, '..', 'portico_restlet.js'));

const out = input.calls.map(({method, args}) => {
    try {
        const body = method === 'POST' ? restlet.post(args) : restlet.get(args);
        return {status: 200, body: JSON.parse(JSON.stringify(body))};
    } catch (e) {
        if (!(e instanceof SuiteScriptError)) throw e;
        return {status: 400, body: {error: {code: e.name, message: e.message}}};
    }
});
process.stdout.write(JSON.stringify(out));
