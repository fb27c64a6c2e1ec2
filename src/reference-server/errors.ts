/** A request the server refuses: a 4xx with a JSON message naming the field. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
    readonly body?: unknown,
  ) {
    super(message);
  }
}

export const badRequest = (field: string, message: string): ApiError =>
  new ApiError(400, `${field}: ${message}`, field);
export const notFound = (field: string, message: string): ApiError => new ApiError(404, `${field}: ${message}`, field);
export const unprocessable = (field: string, message: string): ApiError =>
  new ApiError(422, `${field}: ${message}`, field);
