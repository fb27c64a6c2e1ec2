/** One HTTP exchange as recorded for reports. Credentials are never stored. */
export interface RecordedRequest {
  method: 'POST';
  url: string;
  /** Header values with credentials replaced by placeholders. */
  headers: Record<string, string>;
  /** The body exactly as sent (a string), so malformed bodies replay faithfully. */
  body: string;
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  /** Body text, truncated for the report when large. */
  body: string;
  truncated: boolean;
}

export interface Exchange {
  operation: string;
  request: RecordedRequest;
  response?: RecordedResponse;
  /** Set when no response came (network fault, timeout, oversized body). */
  error?: { code: string; message: string };
  durationMs: number;
  /** Number of attempts (retries of 429/503 on reads). */
  attempts: number;
}
