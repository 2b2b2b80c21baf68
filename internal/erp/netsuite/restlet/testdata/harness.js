// Runs portico_restlet.js under Node with stand-ins for the N/ modules it
// uses, so restlet_test.go can check it answers as the test double does.
// Not for deployment.
//
// stdin: {"files": [{"id", "name", "fileType", "isText", "contents",
//                    "documentSizeKB", "modified", "recordType", "recordId"}],
//         "searches": {"customsearch_x": {"columns": [{"label", "name", "join"}],
//                                          "rows": [[{"text", "value"}]]}},
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
            if (inputEncoding !== 'UTF_8' || outputEncoding !== 'BASE_64') throw new Error('unexpected encode.convert');
            return Buffer.from(string, 'utf8').toString('base64');
        },
    },
    'N/file': {
        load: ({id}) => {
            const f = byId.get(String(id));
            if (!f) throw new SuiteScriptError('RCRD_DSNT_EXIST', 'That record does not exist.');
            return loaded(f);
        },
    },
    'N/format': {
        Type: {DATETIME: 'datetime'},
        parse: ({value}) => new Date(value),
    },
    'N/runtime': {getCurrentScript: () => ({getRemainingUsage: () => 1000})},
    'N/search': {
        Summary: {GROUP: 'group'},
        Sort: {ASC: 'ASC'},
        createColumn: (c) => c,
        create: ({type, filters, columns}) => {
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
