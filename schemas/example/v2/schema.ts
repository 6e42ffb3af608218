/*
 * Widget Context Protocol (WCP), example schema, version 2.
 *
 * A made-up protocol used by mcp-codegen's own tests. It mirrors the shape of
 * an MCP schema (JSON-RPC envelope, request/result pairs, notification unions)
 * while staying small enough to read in one sitting.
 */

/* ---------------------------------------------------------------------------
 * Constants
 * ------------------------------------------------------------------------- */

/** @internal */
export const LATEST_PROTOCOL_VERSION = "2.0";
/** @internal */
export const JSONRPC_VERSION = "2.0";

/**
 * Upper bound on how many widgets a single page of results may hold.
 *
 * @category Constants
 */
export const MAX_PAGE_SIZE = 50;

// Error codes reserved by JSON-RPC 2.0
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;

/**
 * Returned when a widget cannot be changed because somebody else holds it.
 *
 * @internal
 */
export const WIDGET_LOCKED = -32011;

/* ---------------------------------------------------------------------------
 * JSON values
 * ------------------------------------------------------------------------- */

/**
 * Anything that survives a round trip through a JSON encoder.
 *
 * @category Common Types
 */
export type JSONValue =
  | string
  | number
  | boolean
  | null
  | JSONObject
  | JSONArray;

/** @category Common Types */
export type JSONObject = { [key: string]: JSONValue };

/** @category Common Types */
export type JSONArray = JSONValue[];

/**
 * Free-form metadata attached to a message. Keys are owned by whoever
 * wrote them; receivers pass unknown keys through untouched.
 *
 * @category Common Types
 */
export type MetaObject = Record<string, unknown>;

/* ---------------------------------------------------------------------------
 * JSON-RPC envelope
 * ------------------------------------------------------------------------- */

/**
 * Every message a peer may put on the wire.
 *
 * @category JSON-RPC
 */
export type JSONRPCMessage =
  | JSONRPCRequest
  | JSONRPCNotification
  | JSONRPCResponse;

/**
 * Identifies a request so that its response can be matched to it.
 *
 * @category Common Types
 */
export type RequestId = string | number;

/** @category Common Types */
export type ProgressToken = string | number;

/**
 * Opaque pagination position handed out by the host. Clients must not
 * parse or construct cursors themselves.
 *
 * @category Common Types
 */
export type Cursor = string;

/** @internal */
export interface RequestParams {
  _meta?: {
    /**
     * When present, the sender would like progress updates tagged with
     * this token.
     */
    progressToken?: ProgressToken;
    [key: string]: unknown;
  };
}

/** @internal */
export interface Request {
  method: string;
  params?: { [key: string]: any };
}

/** @internal */
export interface NotificationParams {
  _meta?: MetaObject;
}

/** @internal */
export interface Notification {
  method: string;
  params?: { [key: string]: any };
}

/** @category Common Types */
export interface Result {
  _meta?: MetaObject;
  [key: string]: unknown;
}

/**
 * A result that carries nothing beyond the common fields.
 *
 * @category Common Types
 */
export type EmptyResult = Result;

/** @category Common Types */
export interface Error {
  /** Numeric error code, see the constants above. */
  code: number;
  /** One short human-readable sentence. */
  message: string;
  /** Anything else the sender wants to attach. */
  data?: unknown;
}

/** @category JSON-RPC */
export interface JSONRPCRequest extends Request {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId;
}

/** @category JSON-RPC */
export interface JSONRPCNotification extends Notification {
  jsonrpc: typeof JSONRPC_VERSION;
}

/** @category JSON-RPC */
export interface JSONRPCResultResponse {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId;
  result: Result;
}

/** @category JSON-RPC */
export interface JSONRPCErrorResponse {
  jsonrpc: typeof JSONRPC_VERSION;
  id?: RequestId;
  error: Error;
}

/** @category JSON-RPC */
export type JSONRPCResponse = JSONRPCResultResponse | JSONRPCErrorResponse;

/**
 * Error response sent when a widget is locked. Unlike a plain error
 * response, the request id is always known here.
 *
 * @category Errors
 * @see {@link WIDGET_LOCKED}
 */
export interface WidgetLockedError
  extends Omit<JSONRPCErrorResponse, "id" | "error"> {
  id: RequestId;
  error: Error & {
    code: typeof WIDGET_LOCKED;
    data?: {
      /** Who holds the lock. */
      holder: string;
      /**
       * When the lock is expected to be released.
       *
       * @format date-time
       */
      until?: string;
      [key: string]: unknown;
    };
  };
}

/* ---------------------------------------------------------------------------
 * Widgets
 * ------------------------------------------------------------------------- */

/**
 * Identifier of a widget. Lower-case letters only.
 *
 * @TJS-pattern ^[a-z]+$
 * @category Widgets
 */
export type WidgetId = string;

/**
 * The kinds of widget a host can render.
 *
 * @category Widgets
 */
export type WidgetKind = "button" | "slider" | "gauge" | "toggle";

/** @category Common Types */
export interface BaseMetadata {
  /** Machine-friendly name, unique within a host. */
  name: string;
  /** Optional display name. */
  title?: string;
}

/**
 * Rendering hints a client may use or ignore.
 *
 * @category Widgets
 */
export interface WidgetHints {
  /**
   * How prominent the widget should be, from 0 (background) to 1 (front).
   *
   * @TJS-type number
   * @minimum 0
   * @maximum 1
   * @default 0.5
   */
  priority?: number;
  /** Whether the widget only displays data. */
  readOnlyHint?: boolean;
}

/** @category Widgets */
export interface Annotated {
  annotations?: WidgetHints;
}

/**
 * A single control on a widget board.
 *
 * Widgets are described by the host and rendered by the client. A client
 * learns about them through {@link ListWidgetsRequest} and may change them
 * with {@link UpdateWidgetRequest | an update}.
 *
 * @category Widgets
 * @since 1.0
 * @example A slider
 * { "id": "volume", "name": "volume", "kind": "slider", "version": 3 }
 */
export interface Widget extends BaseMetadata, Annotated {
  /** Stable identifier; never changes for the lifetime of the widget. */
  readonly id: WidgetId;
  kind: WidgetKind;
  /**
   * Monotonic revision counter, bumped on every update.
   *
   * @TJS-type integer
   * @minimum 0
   */
  version: number;
  /** Current value, if the widget has one. */
  value?: number;
  /** Longer explanation of what the widget controls. */
  description?: string;
  /** CSS-like class name the client may style by. */
  class?: string;
  /**
   * Legacy colour hint, a hex string.
   *
   * @deprecated Styling belongs in {@link Widget.class}.
   */
  color?: string;
  /** @format uri */
  link?: string;
  /** Free-form tags, case-sensitive, in the order the host prefers. */
  tags?: Array<string>;
  /** Other widgets this one is visually grouped with. */
  "io.example/related"?: WidgetId[];
  /** Arbitrary labels, keyed by label name. */
  labels?: Record<string, string>;
  /** Layout preferences. */
  settings?: {
    layout?: {
      grid?: {
        /** @TJS-type integer */
        columns: number;
        /** @TJS-type integer */
        rows: number;
      };
      list?: string[];
    };
  };
  _meta?: MetaObject;
}

/**
 * A button. Buttons have no value.
 *
 * @category Widgets
 */
export interface ButtonWidget extends Widget {
  kind: "button";
  value?: never;
  /** Set while the button is pressed down. */
  pressed?: true;
}

/**
 * A gauge showing a single number against fixed thresholds.
 *
 * @category Widgets
 */
export interface GaugeWidget extends Widget {
  kind: "gauge";
  thresholds: Record<"low" | "high", number>;
}

/** A closed numeric interval. */
export interface RangeSpec {
  from: number;
  to: number;
}

/** @category Widgets */
export type RangedGauge = GaugeWidget & RangeSpec;

/** An action a widget exposes, described like a tool. */
export interface WidgetAction {
  name: string;
  /** JSON Schema for the action's arguments. */
  inputSchema: {
    type: "object";
    properties?: { [key: string]: object };
    required?: string[];
  };
  /** Layout format of the action's argument form. */
  layoutVersion?: 1 | 2;
}

/* Content */

/** @category Content */
export interface TextContent {
  type: "text";
  text: string;
}

/** @category Content */
export interface ImageContent {
  type: "image";
  /**
   * Base64 image bytes.
   *
   * @format byte
   */
  data: string;
  mimeType: string;
}

/** @category Content */
export interface ChartContent {
  type: "chart";
  series: number[];
}

/** @category Content */
export interface AudioContent {
  type: "audio";
  /**
   * Base64 audio bytes.
   *
   * @format byte
   */
  data: string;
  mimeType: string;
}

/** @category Content */
export type WidgetContent = TextContent | ImageContent | AudioContent;

/* ---------------------------------------------------------------------------
 * Lifecycle
 * ------------------------------------------------------------------------- */

/** @category Lifecycle */
export interface Implementation extends BaseMetadata {
  version?: string;
}

/**
 * Features a host offers.
 *
 * @category Lifecycle
 */
export interface HostCapabilities {
  widgets?: {
    listChanged?: boolean;
    layout?: {
      /** @TJS-type integer */
      maxColumns?: number;
    };
  };
  experimental?: { [key: string]: JSONObject };
}

/** @category Lifecycle */
export interface InitializeRequestParams extends RequestParams {
  protocolVersion: string;
  clientInfo: Implementation;
}

/**
 * First request a client sends after connecting.
 *
 * @category `initialize`
 */
export interface InitializeRequest extends JSONRPCRequest {
  method: "initialize";
  params: InitializeRequestParams;
}

/** @category `initialize` */
export interface InitializeResult extends Result {
  protocolVersion: string;
  capabilities: HostCapabilities;
  hostInfo: Implementation;
  /** Optional greeting text for the user. */
  instructions?: string;
}

/**
 * Liveness check; either side may send it.
 *
 * @category `ping`
 */
export interface PingRequest extends JSONRPCRequest {
  method: "ping";
  params?: RequestParams;
}

/* ---------------------------------------------------------------------------
 * Widget requests
 * ------------------------------------------------------------------------- */

/** @internal */
export interface PaginatedRequestParams extends RequestParams {
  cursor?: Cursor;
  /**
   * Largest number of items the caller wants back.
   *
   * @TJS-type integer
   * @minimum 1
   * @default 20
   */
  limit?: number;
}

/** @category `widgets/list` */
export interface ListWidgetsRequestParams extends PaginatedRequestParams {
  /** Restrict the listing to these kinds. */
  kinds?: WidgetKind[];
}

/** @category `widgets/list` */
export interface ListWidgetsRequest extends JSONRPCRequest {
  method: "widgets/list";
  params?: ListWidgetsRequestParams;
}

/** @category `widgets/list` */
export interface ListWidgetsResult extends Result {
  widgets: Widget[];
  /**
   * Number of widgets across all pages.
   *
   * @TJS-type integer
   */
  total: number;
  nextCursor?: Cursor;
}

/** @category `widgets/get` */
export interface GetWidgetRequestParams extends RequestParams {
  id: WidgetId;
  /** Only answer if the widget is at least this revision. */
  minVersion?: string;
}

/** @category `widgets/get` */
export interface GetWidgetRequest extends JSONRPCRequest {
  method: "widgets/get";
  params: GetWidgetRequestParams;
}

/** @category `widgets/get` */
export interface GetWidgetResult extends Result {
  widget: Widget;
  actions: WidgetAction[];
  /**
   * Rendered previews; at most three.
   *
   * @maxItems 3
   */
  content: (TextContent | ImageContent)[];
}

/** @category `widgets/update` */
export interface UpdateWidgetRequestParams extends RequestParams {
  id: WidgetId;
  /**
   * New value; null clears it.
   *
   * @nullable
   */
  value: number | null;
  /** Reason shown in the host's audit log. */
  note?: string;
}

/** @category `widgets/update` */
export interface UpdateWidgetRequest extends JSONRPCRequest {
  method: "widgets/update";
  params: UpdateWidgetRequestParams;
}

/** @category `widgets/update` */
export interface UpdateWidgetResult extends Result {
  widget: Widget;
}

/** @category `widgets/reset` */
export interface ResetWidgetRequestParams extends RequestParams {
  id: WidgetId;
}

/**
 * Puts a widget back into its initial state. The host answers with the
 * widget as it is after the reset.
 *
 * @category `widgets/reset`
 */
export interface ResetWidgetRequest extends JSONRPCRequest {
  method: "widgets/reset";
  params: ResetWidgetRequestParams;
}

/** @category `widgets/reset` */
export interface ResetWidgetResult extends Result {
  widget: Widget;
}

/** @category `widgets/watch` */
export interface WatchWidgetRequestParams extends RequestParams {
  ids: WidgetId[];
}

/**
 * Asks the host to send {@link WidgetListChangedNotification} whenever one
 * of the given widgets changes. The host answers with an empty result.
 *
 * @category `widgets/watch`
 */
export interface WatchWidgetRequest extends JSONRPCRequest {
  method: "widgets/watch";
  params: WatchWidgetRequestParams;
}

/* Host → client */

/** @category `host/confirm` */
export interface ConfirmRequestParams extends RequestParams {
  /** Question to put to the user. */
  prompt: string;
  /**
   * Latest moment an answer is still useful.
   *
   * @format date-time
   */
  deadline?: string;
}

/**
 * Sent by the host to ask the user to confirm a risky change.
 *
 * @category `host/confirm`
 */
export interface ConfirmRequest extends JSONRPCRequest {
  method: "host/confirm";
  params: ConfirmRequestParams;
}

/** @category `host/confirm` */
export interface ConfirmResult extends Result {
  confirmed: boolean;
}

/* ---------------------------------------------------------------------------
 * Notifications
 * ------------------------------------------------------------------------- */

/** @category `notifications/initialized` */
export interface InitializedNotification extends JSONRPCNotification {
  method: "notifications/initialized";
  params?: NotificationParams;
}

/** @category `notifications/progress` */
export interface ProgressNotificationParams extends NotificationParams {
  progressToken: ProgressToken;
  /** @TJS-type number */
  progress: number;
  /** @TJS-type number */
  total?: number;
}

/** @category `notifications/progress` */
export interface ProgressNotification extends JSONRPCNotification {
  method: "notifications/progress";
  params: ProgressNotificationParams;
}

/** @category `notifications/widgets/list_changed` */
export interface WidgetListChangedNotification extends JSONRPCNotification {
  method: "notifications/widgets/list_changed";
  params?: NotificationParams;
}

/** @category `notifications/focus_changed` */
export interface FocusChangedNotificationParams extends NotificationParams {
  /**
   * Widget that lost focus, or null if nothing had focus.
   *
   * @nullable
   */
  from: WidgetId | null;
  to: WidgetId;
}

/**
 * Reports which widget now holds the input focus.
 *
 * @category `notifications/focus_changed`
 */
export interface FocusChangedNotification extends JSONRPCNotification {
  method: "notifications/focus_changed";
  params: FocusChangedNotificationParams;
}

/* ---------------------------------------------------------------------------
 * Direction unions
 * ------------------------------------------------------------------------- */

/** @internal */
export type ClientRequest =
  | PingRequest
  | InitializeRequest
  | ListWidgetsRequest
  | GetWidgetRequest
  | UpdateWidgetRequest
  | ResetWidgetRequest
  | WatchWidgetRequest;

/** @internal */
export type ClientNotification =
  | InitializedNotification
  | ProgressNotification
  | FocusChangedNotification;

/** @internal */
export type ClientResult = EmptyResult | ConfirmResult;

/** @internal */
export type ServerRequest = PingRequest | ConfirmRequest;

/** @internal */
export type ServerNotification =
  | ProgressNotification
  | WidgetListChangedNotification;

/** @internal */
export type ServerResult =
  | EmptyResult
  | InitializeResult
  | ListWidgetsResult
  | GetWidgetResult
  | UpdateWidgetResult
  | ResetWidgetResult;
