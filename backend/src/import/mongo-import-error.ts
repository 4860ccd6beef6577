/** A problem with the export or the command line: printed as one line, exit code 1, nothing written. */
export class MongoImportError extends Error {}
