package imports

// ImportBatchBytes is importBatchBytes, for the memory test.
const ImportBatchBytes = importBatchBytes
