/**
 * Portico RESTlet: files and saved searches for the Portico staff portal.
 *
 * The portal (internal/erp/netsuite/restlet.go) calls it with GET and the
 * arguments in the query string; POST with the same arguments in a JSON
 * object body is answered the same way. Send Content-Type: application/json
 * so answers and errors come back as JSON.
 *
 *   action=file&id=N
 *     -> {"id", "name", "contentType", "size", "contentBase64"}
 *        size is the length in bytes of the decoded contentBase64.
 *   action=files&recordtype=T&recordid=N
 *     -> {"files": [{"id", "name", "contentType", "size", "modified"}, ...]}
 *        the files attached to the record, in file id order, without content;
 *        modified is ISO 8601 UTC, absent when unknown.
 *   action=savedsearch&id=customsearch_...
 *     -> {"columns": [label, ...], "rows": [[value, ...], ...], "truncated": true}
 *        every value a display string ("" for none); at most 10,000 rows;
 *        truncated is present only when rows were left out.
 *
 * and, with POST only (they change data):
 *
 *   action=addnote, recordtype=T, recordid=N, link=entity|transaction|record,
 *   title, note, externalid
 *     -> {"id"}: a user note on the record (N/record note: title, note, and
 *        entity, transaction, or recordtype + record for a custom record).
 *        A note with that external id already is answered with its id, so
 *        a retry adds nothing.
 *   action=addfile, recordtype=T, recordid=N, name, filetype (a file.Type),
 *   contentBase64, key
 *     -> {"id"}: the file saved in the deployment's upload folder (script
 *        parameter custscript_portico_upload_folder) with description key,
 *        and attached to the record (record.attach). A file whose
 *        description is key already is attached and answered with its id.
 *
 * Errors are thrown with error.create and answered by NetSuite as
 * 400 {"error": {"code", "message"}}: SSS_MISSING_REQD_ARGUMENT,
 * INVALID_ACTION, RCRD_DSNT_EXIST (no such file, saved search or record,
 * or the role may not see it). NetSuite itself answers SSS_INVALID_SCRIPTLET_ID
 * (wrong script/deploy, deployment not released) and
 * SSS_REQUEST_LIMIT_EXCEEDED (throttled; the portal retries).
 *
 * The test double internal/erp/netsuitetest/restlet.go implements the same
 * contract; change both together.
 *
 * @NApiVersion 2.1
 * @NScriptType Restlet
 * @NModuleScope SameAccount
 */
define(['N/encode', 'N/error', 'N/file', 'N/format', 'N/record', 'N/runtime', 'N/search'],
    (encode, error, file, format, record, runtime, search) => {
        const MAX_ROWS = 10000; // saved search rows per answer
        const PAGE = 1000; // getRange's largest page
        const LOAD_RESERVE = 200; // governance units kept back when loading files for exact sizes

        // MIME types of file.Type values; the extension decides for the
        // Office formats NetSuite files under one type.
        const MIME = {
            APPCACHE: 'text/cache-manifest',
            AUTOCAD: 'application/acad',
            BMPIMAGE: 'image/bmp',
            CERTIFICATE: 'application/x-x509-ca-cert',
            CSV: 'text/csv',
            EXCEL: 'application/vnd.ms-excel',
            FLASH: 'application/x-shockwave-flash',
            FREEMARKER: 'text/plain',
            GIFIMAGE: 'image/gif',
            GZIP: 'application/gzip',
            HTMLDOC: 'text/html',
            ICON: 'image/x-icon',
            JAVASCRIPT: 'text/javascript',
            JPGIMAGE: 'image/jpeg',
            JSON: 'application/json',
            MESSAGERFC: 'message/rfc822',
            MP3: 'audio/mpeg',
            MPEGMOVIE: 'video/mpeg',
            MSPROJECT: 'application/vnd.ms-project',
            PDF: 'application/pdf',
            PJPGIMAGE: 'image/jpeg',
            PLAINTEXT: 'text/plain',
            PNGIMAGE: 'image/png',
            POSTSCRIPT: 'application/postscript',
            POWERPOINT: 'application/vnd.ms-powerpoint',
            QUICKTIME: 'video/quicktime',
            RTF: 'application/rtf',
            SCSS: 'text/x-scss',
            STYLESHEET: 'text/css',
            SVG: 'image/svg+xml',
            TAR: 'application/x-tar',
            TIFFIMAGE: 'image/tiff',
            VISIO: 'application/vnd.visio',
            WEBAPPPAGE: 'text/html',
            WEBAPPSCRIPT: 'text/javascript',
            WORD: 'application/msword',
            XMLDOC: 'application/xml',
            XSD: 'application/xml',
            ZIP: 'application/zip',
        };
        const MIME_BY_EXT = {
            docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
            xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
        };

        const fail = (code, message) => error.create({name: code, message: message, notifyOff: true});

        const contentType = (fileType, name) => {
            const ext = String(name || '').split('.').pop().toLowerCase();
            return MIME_BY_EXT[ext] || MIME[String(fileType || '').toUpperCase()] || 'application/octet-stream';
        };

        // base64Length is the number of bytes base64 text decodes to.
        const base64Length = (b64) => {
            const s = b64.replace(/[\r\n]/g, '');
            const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
            return (s.length / 4) * 3 - pad;
        };

        // isoTime turns a date-time as the user's preferences format it into
        // ISO 8601 UTC, or undefined.
        const isoTime = (value) => {
            if (!value) return undefined;
            try {
                const d = format.parse({value: value, type: format.Type.DATETIME});
                return d instanceof Date && !isNaN(d.getTime()) ? d.toISOString() : undefined;
            } catch (e) {
                return undefined;
            }
        };

        const getFile = (id) => {
            if (!/^[0-9]+$/.test(id)) throw fail('SSS_MISSING_REQD_ARGUMENT', 'Missing or invalid argument: id');
            let f;
            try {
                f = file.load({id: Number(id)});
            } catch (e) {
                throw fail('RCRD_DSNT_EXIST', 'That record does not exist. (' + e.name + ': ' + e.message + ')');
            }
            // getContents() is base64 for binary files and text for text
            // files (at most 10 MB either way).
            let b64 = f.getContents();
            if (f.isText) {
                b64 = encode.convert({
                    string: b64,
                    inputEncoding: encode.Encoding.UTF_8,
                    outputEncoding: encode.Encoding.BASE_64,
                });
            }
            b64 = b64.replace(/[\r\n]/g, '');
            return {
                id: String(f.id),
                name: f.name,
                contentType: contentType(f.fileType, f.name),
                size: base64Length(b64),
                contentBase64: b64,
            };
        };

        const listFiles = (recordType, recordId) => {
            if (!/^[a-z][a-z0-9_]*$/i.test(recordType) || !/^[0-9]+$/.test(recordId)) {
                throw fail('SSS_MISSING_REQD_ARGUMENT', 'Missing or invalid arguments: recordtype, recordid');
            }
            // Grouped, so a transaction's lines do not repeat its files.
            const col = (name, sort) => search.createColumn({
                name: name, join: 'file', summary: search.Summary.GROUP, sort: sort,
            });
            const columns = [col('internalid', search.Sort.ASC), col('name'), col('filetype'), col('documentsize'), col('modified')];
            let s;
            try {
                s = search.create({
                    type: recordType.toLowerCase(),
                    filters: [['internalid', 'anyof', recordId], 'AND', ['file.internalid', 'noneof', '@NONE@']],
                    columns: columns,
                });
            } catch (e) {
                throw fail('SSS_MISSING_REQD_ARGUMENT',
                    'Missing or invalid arguments: recordtype, recordid (' + e.name + ': ' + e.message + ')');
            }
            const files = [];
            const rs = s.run();
            for (let start = 0; ; start += PAGE) {
                const page = rs.getRange({start: start, end: start + PAGE});
                page.forEach((r) => {
                    const id = String(r.getValue(columns[0]));
                    const name = r.getValue(columns[1]);
                    const entry = {
                        id: id,
                        name: name,
                        contentType: contentType(r.getValue(columns[2]), name),
                        // The search gives kilobytes; load the file for its
                        // bytes while governance allows.
                        size: Math.round(Number(r.getValue(columns[3]) || 0) * 1024),
                    };
                    if (runtime.getCurrentScript().getRemainingUsage() > LOAD_RESERVE) {
                        try {
                            entry.size = file.load({id: Number(id)}).size;
                        } catch (e) {
                            // keep the search's figure
                        }
                    }
                    const modified = isoTime(r.getValue(columns[4]));
                    if (modified) entry.modified = modified;
                    files.push(entry);
                });
                if (page.length < PAGE) break;
            }
            return {files: files};
        };

        const runSavedSearch = (id) => {
            if (!/^customsearch[a-z0-9_]+$/.test(id)) {
                throw fail('SSS_MISSING_REQD_ARGUMENT', 'Missing or invalid argument: id');
            }
            let s;
            try {
                s = search.load({id: id});
            } catch (e) {
                throw fail('RCRD_DSNT_EXIST', 'That saved search does not exist. (' + e.name + ': ' + e.message + ')');
            }
            const columns = s.columns;
            const rows = [];
            const rs = s.run();
            let truncated = false;
            for (let start = 0; start < MAX_ROWS; start += PAGE) {
                const page = rs.getRange({start: start, end: Math.min(start + PAGE, MAX_ROWS)});
                page.forEach((r) => {
                    rows.push(columns.map((c) => {
                        const v = r.getText(c) || r.getValue(c);
                        return v === null || v === undefined ? '' : String(v);
                    }));
                });
                if (page.length < PAGE) break;
                if (start + PAGE >= MAX_ROWS) {
                    truncated = rs.getRange({start: MAX_ROWS, end: MAX_ROWS + 1}).length > 0;
                }
            }
            const out = {
                columns: columns.map((c) => c.label || (c.join ? c.join + '.' : '') + c.name),
                rows: rows,
            };
            if (truncated) out.truncated = true;
            return out;
        };

        // The file types an upload may have (file.Type values) and whether
        // NetSuite keeps them as text (file.create takes text contents for
        // those, base64 for the others).
        const UPLOAD_TYPES = {
            PDF: false, PNGIMAGE: false, JPGIMAGE: false, GIFIMAGE: false, WORD: false, EXCEL: false,
            POWERPOINT: false, PLAINTEXT: true, CSV: true,
        };
        const MAX_NOTE = 4000; // the portal's limit
        const UPLOAD_FOLDER = 'custscript_portico_upload_folder';

        const checkRecordArgs = (recordType, recordId) => {
            if (!/^[a-z][a-z0-9_]*$/i.test(recordType) || !/^[0-9]+$/.test(recordId)) {
                throw fail('SSS_MISSING_REQD_ARGUMENT', 'Missing or invalid arguments: recordtype, recordid');
            }
        };

        // findOne returns the internal id of the first result of a search,
        // or null.
        const findOne = (type, filters) => {
            const found = search.create({type: type, filters: filters, columns: ['internalid']}).run().getRange({start: 0, end: 1});
            return found.length > 0 ? String(found[0].getValue({name: 'internalid'})) : null;
        };

        const addNote = (args) => {
            const recordType = args('recordtype');
            const recordId = args('recordid');
            checkRecordArgs(recordType, recordId);
            const link = args('link');
            const text = args('note');
            const externalId = args('externalid');
            if (!['entity', 'transaction', 'record'].includes(link) || !text || text.length > MAX_NOTE || !externalId) {
                throw fail('SSS_MISSING_REQD_ARGUMENT', 'Missing or invalid arguments: link, note, externalid');
            }
            const done = findOne('note', [['externalid', 'anyof', externalId]]);
            if (done) return {id: done};
            const n = record.create({type: record.Type.NOTE});
            n.setValue({fieldId: 'title', value: args('title').slice(0, 200)});
            n.setValue({fieldId: 'note', value: text});
            n.setValue({fieldId: 'externalid', value: externalId});
            try {
                if (link === 'record') {
                    // A note names a custom record by its type's internal
                    // id, which the record itself holds (rectype).
                    const target = record.load({type: recordType, id: Number(recordId)});
                    n.setValue({fieldId: 'recordtype', value: target.getValue({fieldId: 'rectype'})});
                    n.setValue({fieldId: 'record', value: Number(recordId)});
                } else {
                    n.setValue({fieldId: link, value: Number(recordId)});
                }
            } catch (e) {
                throw fail('RCRD_DSNT_EXIST', 'That record does not exist. (' + e.name + ': ' + e.message + ')');
            }
            return {id: String(n.save())};
        };

        const addFile = (args) => {
            const recordType = args('recordtype');
            const recordId = args('recordid');
            checkRecordArgs(recordType, recordId);
            const name = args('name');
            const fileType = args('filetype');
            const b64 = args('contentBase64').replace(/[\r\n]/g, '');
            const key = args('key');
            if (!name || !(fileType in UPLOAD_TYPES) || !b64 || !key) {
                throw fail('SSS_MISSING_REQD_ARGUMENT', 'Missing or invalid arguments: name, filetype, contentBase64, key');
            }
            const folder = runtime.getCurrentScript().getParameter({name: UPLOAD_FOLDER});
            if (!folder) {
                throw fail('SSS_MISSING_REQD_ARGUMENT', 'Please enter value(s) for: Folder (the deployment\'s ' + UPLOAD_FOLDER + ' parameter)');
            }
            let id = findOne('file', [['description', 'is', key]]);
            if (!id) {
                const contents = UPLOAD_TYPES[fileType]
                    ? encode.convert({string: b64, inputEncoding: encode.Encoding.BASE_64, outputEncoding: encode.Encoding.UTF_8})
                    : b64;
                const f = file.create({name: name, fileType: fileType, contents: contents, description: key, folder: Number(folder)});
                id = String(f.save());
            }
            try {
                record.attach({record: {type: 'file', id: Number(id)}, to: {type: recordType.toLowerCase(), id: Number(recordId)}});
            } catch (e) {
                throw fail('RCRD_DSNT_EXIST', 'That record does not exist. (' + e.name + ': ' + e.message + ')');
            }
            return {id: id};
        };

        const answer = (args, posted) => {
            const arg = (k) => (args && args[k] !== undefined && args[k] !== null ? String(args[k]) : '');
            switch (arg('action')) {
            case 'file':
                return getFile(arg('id'));
            case 'files':
                return listFiles(arg('recordtype'), arg('recordid'));
            case 'savedsearch':
                return runSavedSearch(arg('id'));
            case 'addnote':
            case 'addfile':
                if (!posted) throw fail('INVALID_ACTION', 'Action "' + arg('action') + '" changes data: send it with POST.');
                return arg('action') === 'addnote' ? addNote(arg) : addFile(arg);
            case '':
                throw fail('SSS_MISSING_REQD_ARGUMENT', 'Missing a required argument: action');
            default:
                throw fail('INVALID_ACTION', 'Unknown action "' + arg('action') + '".');
            }
        };

        return {
            get: (requestParams) => answer(requestParams, false),
            post: (requestBody) => {
                if (typeof requestBody !== 'object' || requestBody === null || Array.isArray(requestBody)) {
                    throw fail('SYNTAX_ERROR', 'The request body is not a JSON object.');
                }
                return answer(requestBody, true);
            },
        };
    });
