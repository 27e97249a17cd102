export interface paths {
    "/api/v1/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List projects */
        get: operations["listProjects"];
        put?: never;
        /** Create a project */
        post: operations["createProject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a project */
        get: operations["getProject"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Update a project */
        patch: operations["updateProject"];
        trace?: never;
    };
    "/api/v1/outcomes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List outcomes */
        get: operations["listOutcomes"];
        put?: never;
        /** Create a outcome */
        post: operations["createOutcome"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/outcomes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a outcome */
        get: operations["getOutcome"];
        put?: never;
        post?: never;
        /** Delete a outcome */
        delete: operations["deleteOutcome"];
        options?: never;
        head?: never;
        /** Update a outcome */
        patch: operations["updateOutcome"];
        trace?: never;
    };
    "/api/v1/context": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List context items */
        get: operations["listContextItems"];
        put?: never;
        /** Create a context item */
        post: operations["createContextItem"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/context/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a context item */
        get: operations["getContextItem"];
        put?: never;
        post?: never;
        /** Delete a context item */
        delete: operations["deleteContextItem"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/decisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List decisions */
        get: operations["listDecisions"];
        put?: never;
        /** Create a decision */
        post: operations["createDecision"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/decisions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a decision */
        get: operations["getDecision"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Update a decision */
        patch: operations["updateDecision"];
        trace?: never;
    };
    "/api/v1/issues": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List issues */
        get: operations["listIssues"];
        put?: never;
        /** Create an issue */
        post: operations["createIssue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/issues/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an issue by id or key */
        get: operations["getIssueByIdOrKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Update an issue */
        patch: operations["updateIssue"];
        trace?: never;
    };
    "/api/v1/issues/{id}/transition": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change an issue's status */
        post: operations["changeIssueStatus"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/time-entries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List time entries */
        get: operations["listTimeEntries"];
        put?: never;
        /** Create a time entry */
        post: operations["createTimeEntry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/time-entries/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a time entry */
        get: operations["getTimeEntry"];
        put?: never;
        post?: never;
        /** Delete a time entry */
        delete: operations["deleteTimeEntry"];
        options?: never;
        head?: never;
        /** Update a time entry */
        patch: operations["updateTimeEntry"];
        trace?: never;
    };
    "/api/v1/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List members
         * @description Workspace admins only.
         */
        get: operations["listMembers"];
        put?: never;
        /**
         * Create a member
         * @description Workspace admins only.
         */
        post: operations["createMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/members/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a member
         * @description Workspace admins only.
         */
        get: operations["getMember"];
        put?: never;
        post?: never;
        /**
         * Delete a member
         * @description Workspace admins only.
         */
        delete: operations["deleteMember"];
        options?: never;
        head?: never;
        /**
         * Update a member
         * @description Workspace admins only.
         */
        patch: operations["updateMember"];
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhooks
         * @description Workspace admins only.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Create a webhook
         * @description Workspace admins only.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook
         * @description Workspace admins only.
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook
         * @description Workspace admins only.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Update a webhook
         * @description Workspace admins only.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/api/v1/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a webhook's signing secret
         * @description Workspace admins only.
         */
        post: operations["rotateWebhookSigningSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a signed test event
         * @description Workspace admins only.
         */
        post: operations["sendSignedTestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a webhook's deliveries
         * @description Workspace admins only.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries/{deliveryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a delivery with its attempts
         * @description Workspace admins only.
         */
        get: operations["getDeliveryWithItsAttempts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries/{deliveryId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redeliver a delivery now
         * @description Workspace admins only.
         */
        post: operations["redeliverDeliveryNow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/delivery-stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Count a webhook's attempts per hour
         * @description Workspace admins only.
         */
        get: operations["countWebhookAttemptsPerHour"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/signals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List or stream the account's signal events
         * @description Workspace admins only.
         */
        get: operations["listOrStreamAccountSignalEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI document */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness: the process answers
         * @description Answers 200 without touching storage and is exempt from the rate limit, so a liveness probe never restarts a process for a slow database.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: storage answers queries
         * @description Answers 200 once storage has answered a query, 503 when it fails or does not answer within 2 s. Exempt from the rate limit.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "project.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * project.created
         * @description Delivered to subscriptions listing project.created or *. Verify X-Service-Signature over the raw body before trusting it; de-duplicate on X-Service-Event-Id.
         */
        post: operations["projectCreatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "project.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * project.updated
         * @description Delivered to subscriptions listing project.updated or *. Verify X-Service-Signature over the raw body before trusting it; de-duplicate on X-Service-Event-Id.
         */
        post: operations["projectUpdatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "outcome.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * outcome.created
         * @description Delivered to subscriptions listing outcome.created or *. Verify X-Service-Signature over the raw body before trusting it; de-duplicate on X-Service-Event-Id.
         */
        post: operations["outcomeCreatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "outcome.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * outcome.updated
         * @description Delivered to subscriptions listing outcome.updated or *. Verify X-Service-Signature over the raw body before trusting it; de-duplicate on X-Service-Event-Id.
         */
        post: operations["outcomeUpdatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "outcome.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * outcome.deleted
         * @description Delivered to subscriptions listing outcome.deleted or *. Verify X-Service-Signature over the raw body before trusting it; de-duplicate on X-Service-Event-Id.
         */
        post: operations["outcomeDeletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "outcome.shipped": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * outcome.shipped
         * @description Delivered to subscriptions listing outcome.shipped or *. Verify X-Service-Signature over the raw body before trusting it; de-duplicate on X-Service-Event-Id.
         */
        post: operations["outcomeShippedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "context.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * context.created
         * @description Delivered to subscriptions listing context.created or *. Verify X-Service-Signature over the raw body before trusting it; de-duplicate on X-Service-Event-Id.
         */
        post: operations["contextCreatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "context.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * context.deleted
         * @description Delivered to subscriptions listing context.deleted or *. Verify X-Service-Signature over the raw body before trusting it; de-duplicate on X-Service-Event-Id.
         */
        post: operations["contextDeletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "decision.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * decision.created
         * @description Delivered to subscriptions listing decision.created or *. Verify X-Service-Signature over the raw body before trusting it; de-duplicate on X-Service-Event-Id.
         */
        post: operations["decisionCreatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "decision.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * decision.updated
         * @description Delivered to subscriptions listing decision.updated or *. Verify X-Service-Signature over the raw body before trusting it; de-duplicate on X-Service-Event-Id.
         */
        post: operations["decisionUpdatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "issue.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * issue.created
         * @description Delivered to subscriptions listing issue.created or *. Verify X-Service-Signature over the raw body before trusting it; de-duplicate on X-Service-Event-Id.
         */
        post: operations["issueCreatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "issue.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * issue.updated
         * @description Delivered to subscriptions listing issue.updated or *. Verify X-Service-Signature over the raw body before trusting it; de-duplicate on X-Service-Event-Id.
         */
        post: operations["issueUpdatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "issue.status_changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * issue.status_changed
         * @description Delivered to subscriptions listing issue.status_changed or *. Verify X-Service-Signature over the raw body before trusting it; de-duplicate on X-Service-Event-Id.
         */
        post: operations["issueStatusChangedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "time_entry.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * time_entry.created
         * @description Delivered to subscriptions listing time_entry.created or *. Verify X-Service-Signature over the raw body before trusting it; de-duplicate on X-Service-Event-Id.
         */
        post: operations["timeEntryCreatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "time_entry.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * time_entry.updated
         * @description Delivered to subscriptions listing time_entry.updated or *. Verify X-Service-Signature over the raw body before trusting it; de-duplicate on X-Service-Event-Id.
         */
        post: operations["timeEntryUpdatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "time_entry.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * time_entry.deleted
         * @description Delivered to subscriptions listing time_entry.deleted or *. Verify X-Service-Signature over the raw body before trusting it; de-duplicate on X-Service-Event-Id.
         */
        post: operations["timeEntryDeletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "member.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * member.created
         * @description Delivered to subscriptions listing member.created or *. Verify X-Service-Signature over the raw body before trusting it; de-duplicate on X-Service-Event-Id.
         */
        post: operations["memberCreatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "member.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * member.updated
         * @description Delivered to subscriptions listing member.updated or *. Verify X-Service-Signature over the raw body before trusting it; de-duplicate on X-Service-Event-Id.
         */
        post: operations["memberUpdatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "member.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * member.deleted
         * @description Delivered to subscriptions listing member.deleted or *. Verify X-Service-Signature over the raw body before trusting it; de-duplicate on X-Service-Event-Id.
         */
        post: operations["memberDeletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * webhook.created
         * @description Delivered to subscriptions listing webhook.created or *. Verify X-Service-Signature over the raw body before trusting it; de-duplicate on X-Service-Event-Id.
         */
        post: operations["webhookCreatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * webhook.updated
         * @description Delivered to subscriptions listing webhook.updated or *. Verify X-Service-Signature over the raw body before trusting it; de-duplicate on X-Service-Event-Id.
         */
        post: operations["webhookUpdatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * webhook.deleted
         * @description Delivered to subscriptions listing webhook.deleted or *. Verify X-Service-Signature over the raw body before trusting it; de-duplicate on X-Service-Event-Id.
         */
        post: operations["webhookDeletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * webhook.test
         * @description Sent only by POST /webhooks/{id}/test.
         */
        post: operations["webhookTestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * Format: date-time
         * @description RFC 3339 UTC with milliseconds
         */
        Timestamp: string;
        /** Format: date */
        CalendarDate: string;
        Problem: {
            /**
             * Format: uri
             * @description A URI naming the error code
             */
            type: string;
            title: string;
            status: number;
            /** @description What went wrong with this request, for people */
            detail: string;
            /**
             * @description The stable code for programs
             * @enum {string}
             */
            error: "validation_failed" | "invalid_json" | "invalid_cursor" | "idempotency_key_missing" | "idempotency_key_invalid" | "unauthorized" | "insufficient_scope" | "forbidden" | "not_found" | "method_not_allowed" | "version_conflict" | "idempotency_key_in_use" | "resource_in_use" | "already_member" | "last_admin" | "delivery_in_flight" | "payload_too_large" | "unsupported_media_type" | "idempotency_key_reused" | "invalid_transition" | "invalid_reference" | "precondition_required" | "rate_limited" | "malformed_request" | "request_timeout" | "headers_too_large" | "internal_error" | "service_unavailable" | "transient_conflict";
            /** @description validation_failed: every bad value */
            issues?: {
                /** @enum {string} */
                in: "body" | "query" | "header" | "path";
                /** @description Dot-separated path inside that location, e.g. `labels.0`; empty for all of it */
                path: string;
                message: string;
            }[];
            /**
             * @description invalid_transition: the current status
             * @enum {string}
             */
            from?: "open" | "in_progress" | "blocked" | "resolved" | "closed";
            /**
             * @description invalid_transition: the status asked for
             * @enum {string}
             */
            to?: "open" | "in_progress" | "blocked" | "resolved" | "closed";
            /** @description invalid_transition: the statuses reachable from `from` */
            allowed?: ("open" | "in_progress" | "blocked" | "resolved" | "closed")[];
            /** @description invalid_reference: the body field naming the missing resource */
            field?: string;
            /** @description resource_in_use: what still refers to the outcome */
            references?: {
                issues: number;
                decisions: number;
                timeEntries: number;
            };
            /** @description version_conflict: the current version */
            currentVersion?: number;
            /** @description method_not_allowed: the methods this path answers */
            allow?: string[];
            /** @description rate_limited: seconds until a request fits */
            retryAfter?: number;
            /** @description payload_too_large: the largest body accepted, in bytes */
            limit?: number;
            /** @description The header value that was refused */
            received?: string | null;
            /**
             * @description insufficient_scope: the scope needed
             * @enum {string}
             */
            requiredScope?: "read_write";
            /**
             * @description forbidden: the role needed
             * @enum {string}
             */
            requiredRole?: "member" | "admin";
            /** @description already_member: the id of the existing member */
            memberId?: string;
        };
        Project: {
            id: string;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
            /** @description Increases with every change; the ETag is "<version>" */
            version: number;
            name: string;
            key: string;
            description: string | null;
        };
        ProjectPage: {
            data: components["schemas"]["Project"][];
            /** @description Pass as `cursor` for the next page; null on the last page */
            nextCursor: string | null;
            /** @description Items matching the filters, over all pages */
            total: number;
        };
        Outcome: {
            id: string;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
            /** @description Increases with every change; the ETag is "<version>" */
            version: number;
            projectId: string;
            title: string;
            description: string | null;
            /** @enum {string} */
            status: "planned" | "in_progress" | "shipped" | "abandoned";
            ownerId: string | null;
            dueDate: components["schemas"]["CalendarDate"] | null;
            /** @description Set when the status becomes shipped */
            shippedAt: components["schemas"]["Timestamp"] | null;
        };
        OutcomePage: {
            data: components["schemas"]["Outcome"][];
            /** @description Pass as `cursor` for the next page; null on the last page */
            nextCursor: string | null;
            /** @description Items matching the filters, over all pages */
            total: number;
        };
        ContextItem: {
            id: string;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
            /** @description Increases with every change; the ETag is "<version>" */
            version: number;
            outcomeId: string;
            /** @enum {string} */
            kind: "document" | "link" | "note";
            title: string;
            url: string | null;
            body: string | null;
        };
        ContextItemPage: {
            data: components["schemas"]["ContextItem"][];
            /** @description Pass as `cursor` for the next page; null on the last page */
            nextCursor: string | null;
            /** @description Items matching the filters, over all pages */
            total: number;
        };
        Decision: {
            id: string;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
            /** @description Increases with every change; the ETag is "<version>" */
            version: number;
            projectId: string;
            title: string;
            rationale: string;
            participants: string[];
            outcomeId: string | null;
            /** @enum {string} */
            status: "proposed" | "accepted" | "rejected" | "superseded";
            decidedAt: components["schemas"]["Timestamp"] | null;
            supersededBy: string | null;
        };
        DecisionPage: {
            data: components["schemas"]["Decision"][];
            /** @description Pass as `cursor` for the next page; null on the last page */
            nextCursor: string | null;
            /** @description Items matching the filters, over all pages */
            total: number;
        };
        Issue: {
            id: string;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
            /** @description Increases with every change; the ETag is "<version>" */
            version: number;
            projectId: string;
            /** @description The issue's number in its project */
            number: number;
            /** @description `<PROJECT KEY>-<number>`, e.g. APO-12 */
            key: string;
            title: string;
            description: string | null;
            /** @enum {string} */
            severity: "low" | "medium" | "high" | "critical";
            /**
             * @description Changed only by POST /issues/{id}/transition
             * @enum {string}
             */
            status: "open" | "in_progress" | "blocked" | "resolved" | "closed";
            outcomeId: string | null;
            assigneeId: string | null;
            labels: string[];
            /** @description Set on entering resolved, cleared on leaving it */
            resolvedAt: components["schemas"]["Timestamp"] | null;
        };
        IssuePage: {
            data: components["schemas"]["Issue"][];
            /** @description Pass as `cursor` for the next page; null on the last page */
            nextCursor: string | null;
            /** @description Items matching the filters, over all pages */
            total: number;
        };
        TimeEntry: {
            id: string;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
            /** @description Increases with every change; the ETag is "<version>" */
            version: number;
            outcomeId: string;
            issueId: string | null;
            /** @description The user who logged the time: always the token's user */
            userId: string;
            minutes: number;
            date: components["schemas"]["CalendarDate"];
            note: string | null;
        };
        TimeEntryPage: {
            data: components["schemas"]["TimeEntry"][];
            /** @description Pass as `cursor` for the next page; null on the last page */
            nextCursor: string | null;
            /** @description Items matching the filters, over all pages */
            total: number;
            totalMinutes: number;
        };
        Member: {
            /** @description The member's id: the id of its user */
            id: string;
            userId: string;
            email: string;
            /** @enum {string} */
            role: "admin" | "member" | "viewer";
            /** @description When the user joined the workspace */
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
            /** @description Increases with every change; the ETag is "<version>" */
            version: number;
            /** @description The latest use of one of the member's tokens in this workspace, or sign-in to the admin pages */
            lastActiveAt: components["schemas"]["Timestamp"] | null;
            /** @description Live (not revoked, not expired) tokens the member has here */
            tokenCount: number;
        };
        MemberPage: {
            data: components["schemas"]["Member"][];
            /** @description Pass as `cursor` for the next page; null on the last page */
            nextCursor: string | null;
            /** @description Items matching the filters, over all pages */
            total: number;
        };
        Webhook: {
            id: string;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
            /** @description Increases with every change; the ETag is "<version>" */
            version: number;
            accountId: string;
            url: string;
            eventTypes: ("project.created" | "project.updated" | "outcome.created" | "outcome.updated" | "outcome.deleted" | "outcome.shipped" | "context.created" | "context.deleted" | "decision.created" | "decision.updated" | "issue.created" | "issue.updated" | "issue.status_changed" | "time_entry.created" | "time_entry.updated" | "time_entry.deleted" | "member.created" | "member.updated" | "member.deleted" | "webhook.created" | "webhook.updated" | "webhook.deleted" | "webhook.test" | "*")[];
            description: string | null;
            /** @enum {string} */
            status: "active" | "disabled";
            /** @description Why the service disabled it: gone or failing */
            disabledReason: string | null;
            /**
             * @description How deliveries are signed: `stripe` (X-Service-Signature), `standard` (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature) or `both`
             * @enum {string}
             */
            signatureScheme: "stripe" | "standard" | "both";
        };
        WebhookPage: {
            data: components["schemas"]["Webhook"][];
            /** @description Pass as `cursor` for the next page; null on the last page */
            nextCursor: string | null;
            /** @description Items matching the filters, over all pages */
            total: number;
        };
        WebhookCreated: {
            id: string;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
            /** @description Increases with every change; the ETag is "<version>" */
            version: number;
            accountId: string;
            url: string;
            eventTypes: ("project.created" | "project.updated" | "outcome.created" | "outcome.updated" | "outcome.deleted" | "outcome.shipped" | "context.created" | "context.deleted" | "decision.created" | "decision.updated" | "issue.created" | "issue.updated" | "issue.status_changed" | "time_entry.created" | "time_entry.updated" | "time_entry.deleted" | "member.created" | "member.updated" | "member.deleted" | "webhook.created" | "webhook.updated" | "webhook.deleted" | "webhook.test" | "*")[];
            description: string | null;
            /** @enum {string} */
            status: "active" | "disabled";
            /** @description Why the service disabled it: gone or failing */
            disabledReason: string | null;
            /**
             * @description How deliveries are signed: `stripe` (X-Service-Signature), `standard` (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature) or `both`
             * @enum {string}
             */
            signatureScheme: "stripe" | "standard" | "both";
            /** @description The signing secret, shown in the 201 only; null in a replay (200, Idempotent-Replayed: true), since the secret is not stored with the key */
            secret: string | null;
        };
        WebhookRotated: {
            id: string;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
            /** @description Increases with every change; the ETag is "<version>" */
            version: number;
            accountId: string;
            url: string;
            eventTypes: ("project.created" | "project.updated" | "outcome.created" | "outcome.updated" | "outcome.deleted" | "outcome.shipped" | "context.created" | "context.deleted" | "decision.created" | "decision.updated" | "issue.created" | "issue.updated" | "issue.status_changed" | "time_entry.created" | "time_entry.updated" | "time_entry.deleted" | "member.created" | "member.updated" | "member.deleted" | "webhook.created" | "webhook.updated" | "webhook.deleted" | "webhook.test" | "*")[];
            description: string | null;
            /** @enum {string} */
            status: "active" | "disabled";
            /** @description Why the service disabled it: gone or failing */
            disabledReason: string | null;
            /**
             * @description How deliveries are signed: `stripe` (X-Service-Signature), `standard` (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature) or `both`
             * @enum {string}
             */
            signatureScheme: "stripe" | "standard" | "both";
            /** @description The signing secret, shown in this answer only */
            secret: string;
            previousSecretExpiresAt: components["schemas"]["Timestamp"];
        };
        WebhookDelivery: {
            id: string;
            subscriptionId: string;
            /** Format: uuid */
            eventId: string;
            /** @enum {string} */
            eventType: "project.created" | "project.updated" | "outcome.created" | "outcome.updated" | "outcome.deleted" | "outcome.shipped" | "context.created" | "context.deleted" | "decision.created" | "decision.updated" | "issue.created" | "issue.updated" | "issue.status_changed" | "time_entry.created" | "time_entry.updated" | "time_entry.deleted" | "member.created" | "member.updated" | "member.deleted" | "webhook.created" | "webhook.updated" | "webhook.deleted" | "webhook.test";
            /**
             * @description pending (waiting for its next attempt), sending (an attempt in flight), delivered or failed
             * @enum {string}
             */
            status: "pending" | "sending" | "delivered" | "failed";
            /** @description Attempts made so far, retries through the API included */
            attempts: number;
            nextAttemptAt: components["schemas"]["Timestamp"] | null;
            lastAttemptAt: components["schemas"]["Timestamp"] | null;
            lastResponseStatus: number | null;
            lastError: string | null;
            lastDurationMs: number | null;
            deliveredAt: components["schemas"]["Timestamp"] | null;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
        };
        WebhookDeliveryPage: {
            data: components["schemas"]["WebhookDelivery"][];
            /** @description Pass as `cursor` for the next page; null on the last page */
            nextCursor: string | null;
            /** @description Items matching the filters, over all pages */
            total: number;
        };
        WebhookDeliveryDetail: {
            id: string;
            subscriptionId: string;
            /** Format: uuid */
            eventId: string;
            /** @enum {string} */
            eventType: "project.created" | "project.updated" | "outcome.created" | "outcome.updated" | "outcome.deleted" | "outcome.shipped" | "context.created" | "context.deleted" | "decision.created" | "decision.updated" | "issue.created" | "issue.updated" | "issue.status_changed" | "time_entry.created" | "time_entry.updated" | "time_entry.deleted" | "member.created" | "member.updated" | "member.deleted" | "webhook.created" | "webhook.updated" | "webhook.deleted" | "webhook.test";
            /**
             * @description pending (waiting for its next attempt), sending (an attempt in flight), delivered or failed
             * @enum {string}
             */
            status: "pending" | "sending" | "delivered" | "failed";
            /** @description Attempts made so far, retries through the API included */
            attempts: number;
            nextAttemptAt: components["schemas"]["Timestamp"] | null;
            lastAttemptAt: components["schemas"]["Timestamp"] | null;
            lastResponseStatus: number | null;
            lastError: string | null;
            lastDurationMs: number | null;
            deliveredAt: components["schemas"]["Timestamp"] | null;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
            /** @description The exact body sent on every attempt */
            payload: string;
            attemptLog: components["schemas"]["WebhookDeliveryAttempt"][];
        };
        WebhookDeliveryAttempt: {
            number: number;
            startedAt: components["schemas"]["Timestamp"];
            durationMs: number;
            /** @description Whether the receiver answered 2xx */
            succeeded: boolean;
            request: {
                url: string;
                /** @description The headers as sent, signature included */
                headers: {
                    [key: string]: string;
                };
                /** @description The exact body sent (the same bytes on every attempt) */
                body: string;
            };
            /** @description null when no answer came (see error) */
            response: {
                status: number;
                /** @description Header names in lower case */
                headers: {
                    [key: string]: string;
                };
                /** @description The first 4096 bytes of the body, decoded as UTF-8 */
                body: string;
                bodyTruncated: boolean;
            } | null;
            error: string | null;
        };
        WebhookDeliveryStats: {
            since: components["schemas"]["Timestamp"];
            hours: {
                hour: components["schemas"]["Timestamp"];
                succeeded: number;
                failed: number;
            }[];
        };
        WebhookTestResult: {
            /** Format: uuid */
            eventId: string;
            delivered: boolean;
            /** @description The receiver's HTTP status; null when none came */
            responseStatus: number | null;
            durationMs: number;
            error: string | null;
        };
        SignalEvent: {
            /** Format: uuid */
            id: string;
            /** @description Strictly increasing in commit order */
            sequence: number;
            /** @enum {string} */
            type: "project.created" | "project.updated" | "outcome.created" | "outcome.updated" | "outcome.deleted" | "outcome.shipped" | "context.created" | "context.deleted" | "decision.created" | "decision.updated" | "issue.created" | "issue.updated" | "issue.status_changed" | "time_entry.created" | "time_entry.updated" | "time_entry.deleted" | "member.created" | "member.updated" | "member.deleted" | "webhook.created" | "webhook.updated" | "webhook.deleted" | "webhook.test";
            occurredAt: components["schemas"]["Timestamp"];
            accountId: string;
            workspaceId: string;
            actor: {
                userId: string | null;
                /** @description null for changes made by the operator through the CLI */
                tokenId: string | null;
            };
            resource: {
                type: string;
                id: string;
            };
            /** @description Further members per type: `comment` on issue.status_changed, `secretRotated` on webhook.updated */
            data: {
                /** @description The resource after the change */
                object: {
                    [key: string]: unknown;
                };
                /** @description The old values of the fields that changed */
                previous?: {
                    [key: string]: unknown;
                };
            } & {
                [key: string]: unknown;
            };
        };
        SignalPage: {
            data: components["schemas"]["SignalEvent"][];
            /** @description Pass as `cursor` for the next page; null on the last page */
            nextCursor: string | null;
            /** @description Items matching the filters, over all pages */
            total: number;
        };
        ProjectCreatedEvent: {
            /**
             * Format: uuid
             * @description The event id, also sent as X-Service-Event-Id; the same on every retry
             */
            id: string;
            /** @constant */
            type: "project.created";
            occurredAt: components["schemas"]["Timestamp"];
            data: {
                object: components["schemas"]["Project"];
            };
        };
        ProjectUpdatedEvent: {
            /**
             * Format: uuid
             * @description The event id, also sent as X-Service-Event-Id; the same on every retry
             */
            id: string;
            /** @constant */
            type: "project.updated";
            occurredAt: components["schemas"]["Timestamp"];
            data: {
                object: components["schemas"]["Project"];
                /** @description The old values of the fields that changed */
                previous: {
                    [key: string]: unknown;
                };
            };
        };
        OutcomeCreatedEvent: {
            /**
             * Format: uuid
             * @description The event id, also sent as X-Service-Event-Id; the same on every retry
             */
            id: string;
            /** @constant */
            type: "outcome.created";
            occurredAt: components["schemas"]["Timestamp"];
            data: {
                object: components["schemas"]["Outcome"];
            };
        };
        OutcomeUpdatedEvent: {
            /**
             * Format: uuid
             * @description The event id, also sent as X-Service-Event-Id; the same on every retry
             */
            id: string;
            /** @constant */
            type: "outcome.updated";
            occurredAt: components["schemas"]["Timestamp"];
            data: {
                object: components["schemas"]["Outcome"];
                /** @description The old values of the fields that changed */
                previous: {
                    [key: string]: unknown;
                };
            };
        };
        OutcomeDeletedEvent: {
            /**
             * Format: uuid
             * @description The event id, also sent as X-Service-Event-Id; the same on every retry
             */
            id: string;
            /** @constant */
            type: "outcome.deleted";
            occurredAt: components["schemas"]["Timestamp"];
            data: {
                object: components["schemas"]["Outcome"];
            };
        };
        OutcomeShippedEvent: {
            /**
             * Format: uuid
             * @description The event id, also sent as X-Service-Event-Id; the same on every retry
             */
            id: string;
            /** @constant */
            type: "outcome.shipped";
            occurredAt: components["schemas"]["Timestamp"];
            data: {
                object: components["schemas"]["Outcome"];
            };
        };
        ContextCreatedEvent: {
            /**
             * Format: uuid
             * @description The event id, also sent as X-Service-Event-Id; the same on every retry
             */
            id: string;
            /** @constant */
            type: "context.created";
            occurredAt: components["schemas"]["Timestamp"];
            data: {
                object: components["schemas"]["ContextItem"];
            };
        };
        ContextDeletedEvent: {
            /**
             * Format: uuid
             * @description The event id, also sent as X-Service-Event-Id; the same on every retry
             */
            id: string;
            /** @constant */
            type: "context.deleted";
            occurredAt: components["schemas"]["Timestamp"];
            data: {
                object: components["schemas"]["ContextItem"];
            };
        };
        DecisionCreatedEvent: {
            /**
             * Format: uuid
             * @description The event id, also sent as X-Service-Event-Id; the same on every retry
             */
            id: string;
            /** @constant */
            type: "decision.created";
            occurredAt: components["schemas"]["Timestamp"];
            data: {
                object: components["schemas"]["Decision"];
            };
        };
        DecisionUpdatedEvent: {
            /**
             * Format: uuid
             * @description The event id, also sent as X-Service-Event-Id; the same on every retry
             */
            id: string;
            /** @constant */
            type: "decision.updated";
            occurredAt: components["schemas"]["Timestamp"];
            data: {
                object: components["schemas"]["Decision"];
                /** @description The old values of the fields that changed */
                previous: {
                    [key: string]: unknown;
                };
            };
        };
        IssueCreatedEvent: {
            /**
             * Format: uuid
             * @description The event id, also sent as X-Service-Event-Id; the same on every retry
             */
            id: string;
            /** @constant */
            type: "issue.created";
            occurredAt: components["schemas"]["Timestamp"];
            data: {
                object: components["schemas"]["Issue"];
            };
        };
        IssueUpdatedEvent: {
            /**
             * Format: uuid
             * @description The event id, also sent as X-Service-Event-Id; the same on every retry
             */
            id: string;
            /** @constant */
            type: "issue.updated";
            occurredAt: components["schemas"]["Timestamp"];
            data: {
                object: components["schemas"]["Issue"];
                /** @description The old values of the fields that changed */
                previous: {
                    [key: string]: unknown;
                };
            };
        };
        IssueStatusChangedEvent: {
            /**
             * Format: uuid
             * @description The event id, also sent as X-Service-Event-Id; the same on every retry
             */
            id: string;
            /** @constant */
            type: "issue.status_changed";
            occurredAt: components["schemas"]["Timestamp"];
            data: {
                object: components["schemas"]["Issue"];
                previous: {
                    /**
                     * @description Changed only by POST /issues/{id}/transition
                     * @enum {string}
                     */
                    status: "open" | "in_progress" | "blocked" | "resolved" | "closed";
                };
                /** @description The comment sent with the transition */
                comment?: string;
            };
        };
        TimeEntryCreatedEvent: {
            /**
             * Format: uuid
             * @description The event id, also sent as X-Service-Event-Id; the same on every retry
             */
            id: string;
            /** @constant */
            type: "time_entry.created";
            occurredAt: components["schemas"]["Timestamp"];
            data: {
                object: components["schemas"]["TimeEntry"];
            };
        };
        TimeEntryUpdatedEvent: {
            /**
             * Format: uuid
             * @description The event id, also sent as X-Service-Event-Id; the same on every retry
             */
            id: string;
            /** @constant */
            type: "time_entry.updated";
            occurredAt: components["schemas"]["Timestamp"];
            data: {
                object: components["schemas"]["TimeEntry"];
                /** @description The old values of the fields that changed */
                previous: {
                    [key: string]: unknown;
                };
            };
        };
        TimeEntryDeletedEvent: {
            /**
             * Format: uuid
             * @description The event id, also sent as X-Service-Event-Id; the same on every retry
             */
            id: string;
            /** @constant */
            type: "time_entry.deleted";
            occurredAt: components["schemas"]["Timestamp"];
            data: {
                object: components["schemas"]["TimeEntry"];
            };
        };
        MemberCreatedEvent: {
            /**
             * Format: uuid
             * @description The event id, also sent as X-Service-Event-Id; the same on every retry
             */
            id: string;
            /** @constant */
            type: "member.created";
            occurredAt: components["schemas"]["Timestamp"];
            data: {
                object: components["schemas"]["Member"];
            };
        };
        MemberUpdatedEvent: {
            /**
             * Format: uuid
             * @description The event id, also sent as X-Service-Event-Id; the same on every retry
             */
            id: string;
            /** @constant */
            type: "member.updated";
            occurredAt: components["schemas"]["Timestamp"];
            data: {
                object: components["schemas"]["Member"];
                /** @description The old values of the fields that changed */
                previous: {
                    [key: string]: unknown;
                };
            };
        };
        MemberDeletedEvent: {
            /**
             * Format: uuid
             * @description The event id, also sent as X-Service-Event-Id; the same on every retry
             */
            id: string;
            /** @constant */
            type: "member.deleted";
            occurredAt: components["schemas"]["Timestamp"];
            data: {
                object: components["schemas"]["Member"];
            };
        };
        WebhookCreatedEvent: {
            /**
             * Format: uuid
             * @description The event id, also sent as X-Service-Event-Id; the same on every retry
             */
            id: string;
            /** @constant */
            type: "webhook.created";
            occurredAt: components["schemas"]["Timestamp"];
            data: {
                object: components["schemas"]["Webhook"];
            };
        };
        WebhookUpdatedEvent: {
            /**
             * Format: uuid
             * @description The event id, also sent as X-Service-Event-Id; the same on every retry
             */
            id: string;
            /** @constant */
            type: "webhook.updated";
            occurredAt: components["schemas"]["Timestamp"];
            data: {
                object: components["schemas"]["Webhook"];
                /** @description The old values of the fields that changed */
                previous: {
                    [key: string]: unknown;
                };
                /** @constant */
                secretRotated?: true;
            };
        };
        WebhookDeletedEvent: {
            /**
             * Format: uuid
             * @description The event id, also sent as X-Service-Event-Id; the same on every retry
             */
            id: string;
            /** @constant */
            type: "webhook.deleted";
            occurredAt: components["schemas"]["Timestamp"];
            data: {
                object: components["schemas"]["Webhook"];
            };
        };
        WebhookTestEvent: {
            /**
             * Format: uuid
             * @description The event id, also sent as X-Service-Event-Id; the same on every retry
             */
            id: string;
            /** @constant */
            type: "webhook.test";
            occurredAt: components["schemas"]["Timestamp"];
            data: {
                object: {
                    webhookId: string;
                    message: string;
                };
            };
        };
        ProjectCreate: {
            name: string;
            key?: string;
            description?: string | null;
        };
        ProjectPatch: {
            name?: string;
            description?: string | null;
        };
        OutcomeCreate: {
            projectId: string;
            title: string;
            description?: string | null;
            /** @enum {string} */
            status?: "planned" | "in_progress" | "shipped" | "abandoned";
            ownerId?: string | null;
            dueDate?: string | null;
        };
        OutcomePatch: {
            title?: string;
            description?: string | null;
            /** @enum {string} */
            status?: "planned" | "in_progress" | "shipped" | "abandoned";
            ownerId?: string | null;
            dueDate?: string | null;
        };
        ContextItemCreate: {
            outcomeId: string;
            title: string;
            /** @constant */
            kind: "document";
            /** Format: uri */
            url: string;
            body?: null;
        } | {
            outcomeId: string;
            title: string;
            /** @constant */
            kind: "link";
            /** Format: uri */
            url: string;
            body?: null;
        } | {
            outcomeId: string;
            title: string;
            /** @constant */
            kind: "note";
            body: string;
            url?: null;
        };
        DecisionCreate: {
            projectId: string;
            title: string;
            rationale: string;
            participants?: string[];
            outcomeId?: string | null;
            /** @enum {string} */
            status?: "proposed" | "accepted" | "rejected" | "superseded";
            decidedAt?: string | null;
            supersededBy?: string | null;
        };
        DecisionPatch: {
            title?: string;
            rationale?: string;
            participants?: string[];
            outcomeId?: string | null;
            /** @enum {string} */
            status?: "proposed" | "accepted" | "rejected" | "superseded";
            decidedAt?: string | null;
            supersededBy?: string | null;
        };
        IssueCreate: {
            projectId: string;
            title: string;
            description?: string | null;
            /** @enum {string} */
            severity?: "low" | "medium" | "high" | "critical";
            outcomeId?: string | null;
            assigneeId?: string | null;
            labels?: string[];
        };
        IssuePatch: {
            title?: string;
            description?: string | null;
            /** @enum {string} */
            severity?: "low" | "medium" | "high" | "critical";
            outcomeId?: string | null;
            assigneeId?: string | null;
            labels?: string[];
        };
        IssueTransition: {
            /** @enum {string} */
            to: "open" | "in_progress" | "blocked" | "resolved" | "closed";
            comment?: string;
        };
        TimeEntryCreate: {
            outcomeId: string;
            minutes: number;
            /** Format: date */
            date: string;
            issueId?: string | null;
            note?: string | null;
        };
        TimeEntryPatch: {
            outcomeId?: string;
            minutes?: number;
            /** Format: date */
            date?: string;
            issueId?: string | null;
            note?: string | null;
        };
        MemberCreate: {
            /** Format: email */
            email: string;
            /**
             * @default member
             * @enum {string}
             */
            role: "admin" | "member" | "viewer";
        };
        MemberPatch: {
            /** @enum {string} */
            role?: "admin" | "member" | "viewer";
        };
        WebhookCreate: {
            url: string;
            eventTypes: ("project.created" | "project.updated" | "outcome.created" | "outcome.updated" | "outcome.deleted" | "outcome.shipped" | "context.created" | "context.deleted" | "decision.created" | "decision.updated" | "issue.created" | "issue.updated" | "issue.status_changed" | "time_entry.created" | "time_entry.updated" | "time_entry.deleted" | "member.created" | "member.updated" | "member.deleted" | "webhook.created" | "webhook.updated" | "webhook.deleted" | "webhook.test" | "*")[];
            description?: string | null;
            /**
             * @description How deliveries are signed: `stripe` (X-Service-Signature), `standard` (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature) or `both`
             * @enum {string}
             */
            signatureScheme?: "stripe" | "standard" | "both";
        };
        WebhookPatch: {
            url?: string;
            eventTypes?: ("project.created" | "project.updated" | "outcome.created" | "outcome.updated" | "outcome.deleted" | "outcome.shipped" | "context.created" | "context.deleted" | "decision.created" | "decision.updated" | "issue.created" | "issue.updated" | "issue.status_changed" | "time_entry.created" | "time_entry.updated" | "time_entry.deleted" | "member.created" | "member.updated" | "member.deleted" | "webhook.created" | "webhook.updated" | "webhook.deleted" | "webhook.test" | "*")[];
            description?: string | null;
            /** @enum {string} */
            status?: "active" | "disabled";
            /**
             * @description How deliveries are signed: `stripe` (X-Service-Signature), `standard` (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature) or `both`
             * @enum {string}
             */
            signatureScheme?: "stripe" | "standard" | "both";
        };
    };
    responses: {
        /** @description validation_failed (a bad body, query parameter or header, with `issues`), invalid_json, invalid_cursor, idempotency_key_missing or idempotency_key_invalid. */
        BadRequest: {
            headers: {
                /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                "X-Request-Id": string;
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description unauthorized: the token is missing, malformed, unknown, revoked or expired. */
        Unauthorized: {
            headers: {
                /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                "X-Request-Id": string;
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                /** @description The bearer challenge. */
                "WWW-Authenticate": string;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description insufficient_scope (a read token writing) or forbidden (the user's role is too weak). */
        Forbidden: {
            headers: {
                /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                "X-Request-Id": string;
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description not_found: no such resource in this workspace (another tenant's ids are not found either). */
        NotFound: {
            headers: {
                /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                "X-Request-Id": string;
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description version_conflict (stale If-Match; carries the current ETag), idempotency_key_in_use (retry after Retry-After), resource_in_use, already_member (with `memberId`) or last_admin (the last admin of a workspace cannot be demoted or removed). */
        Conflict: {
            headers: {
                /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                "X-Request-Id": string;
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                ETag: components["headers"]["ETag"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description payload_too_large: bodies are limited to 1 MiB. */
        PayloadTooLarge: {
            headers: {
                /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                "X-Request-Id": string;
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description unsupported_media_type: a body must be sent as application/json. */
        UnsupportedMediaType: {
            headers: {
                /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                "X-Request-Id": string;
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description idempotency_key_reused (the key was used with another request), invalid_reference (with `field`) or invalid_transition (with `from`, `to`, `allowed`). */
        Unprocessable: {
            headers: {
                /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                "X-Request-Id": string;
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description precondition_required: an update needs If-Match. */
        PreconditionRequired: {
            headers: {
                /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                "X-Request-Id": string;
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description rate_limited: over the rate limit; retry after Retry-After seconds. */
        TooManyRequests: {
            headers: {
                /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                "X-Request-Id": string;
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                /** @description Seconds to wait before retrying. */
                "Retry-After": string;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description internal_error: our fault. The body never holds a stack trace; quote X-Request-Id. */
        InternalError: {
            headers: {
                /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                "X-Request-Id": string;
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description service_unavailable: storage does not answer; transient_conflict: the request kept colliding with concurrent ones (several server processes on one PostgreSQL database) and nothing of it was saved. Retry after Retry-After seconds. */
        ServiceUnavailable: {
            headers: {
                /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                "X-Request-Id": string;
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                /** @description Seconds to wait before retrying. */
                "Retry-After": string;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: {
        /** @description A client-generated UUID. The same key and request within 24 hours replays the first answer (200, Idempotent-Replayed: true); the same key with another request is a 422. */
        IdempotencyKeyRequired: string;
        /** @description Optional here; when given, a repeat of the same request replays the first answer. */
        IdempotencyKeyOptional: string;
        /** @description The ETag from a GET of the item (or `*`). Stale: 409 version_conflict with the current ETag. */
        IfMatchRequired: string;
        /** @description When given, the change happens only at this version (409 version_conflict otherwise). */
        IfMatchOptional: string;
        /** @description An ETag held by the client: 304 Not Modified while it is current. */
        IfNoneMatch: string;
    };
    requestBodies: never;
    headers: {
        /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
        "X-Request-Id": string;
        /** @description Requests allowed per window. Sent on every response while rate limiting is on (the default). */
        "X-RateLimit-Limit": string;
        /** @description Requests that may be sent right now. Sent on every response while rate limiting is on (the default). */
        "X-RateLimit-Remaining": string;
        /** @description Seconds until one more request is allowed. Sent on every response while rate limiting is on (the default). */
        "X-RateLimit-Reset": string;
        /** @description IETF draft: `"default";r=<remaining>;t=<seconds>`. Sent on every response while rate limiting is on (the default). */
        RateLimit: string;
        /** @description IETF draft: `"default";q=<limit>;w=<window seconds>`. Sent on every response while rate limiting is on (the default). */
        "RateLimit-Policy": string;
        /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
        ETag: string;
        /** @description Present (`true`) when the answer is the stored answer of an earlier request with this key. */
        "Idempotent-Replayed": "true";
        /** @description Seconds to wait before retrying. */
        "Retry-After": string;
        /** @description The bearer challenge. */
        "WWW-Authenticate": string;
        /** @description The methods this path answers. */
        Allow: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listProjects: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                createdAfter?: string;
                createdBefore?: string;
                updatedSince?: string;
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createProject: {
        parameters: {
            query?: never;
            header: {
                /** @description A client-generated UUID. The same key and request within 24 hours replays the first answer (200, Idempotent-Replayed: true); the same key with another request is a 422. */
                "Idempotency-Key": components["parameters"]["IdempotencyKeyRequired"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProjectCreate"];
            };
        };
        responses: {
            /** @description The stored answer of an earlier request with the same Idempotency-Key and the same body. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    /** @description Present (`true`) when the answer is the stored answer of an earlier request with this key. */
                    "Idempotent-Replayed": "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            /** @description Created. */
            201: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getProject: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag held by the client: 304 Not Modified while it is current. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description The resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The resource. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            /** @description Not modified: If-None-Match names the current version. */
            304: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateProject: {
        parameters: {
            query?: never;
            header: {
                /** @description The ETag from a GET of the item (or `*`). Stale: 409 version_conflict with the current ETag. */
                "If-Match": components["parameters"]["IfMatchRequired"];
            };
            path: {
                /** @description The resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProjectPatch"];
            };
        };
        responses: {
            /** @description The resource after the change. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            428: components["responses"]["PreconditionRequired"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listOutcomes: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                createdAfter?: string;
                createdBefore?: string;
                updatedSince?: string;
                projectId?: string;
                status?: "planned" | "in_progress" | "shipped" | "abandoned";
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OutcomePage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createOutcome: {
        parameters: {
            query?: never;
            header: {
                /** @description A client-generated UUID. The same key and request within 24 hours replays the first answer (200, Idempotent-Replayed: true); the same key with another request is a 422. */
                "Idempotency-Key": components["parameters"]["IdempotencyKeyRequired"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OutcomeCreate"];
            };
        };
        responses: {
            /** @description The stored answer of an earlier request with the same Idempotency-Key and the same body. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    /** @description Present (`true`) when the answer is the stored answer of an earlier request with this key. */
                    "Idempotent-Replayed": "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Outcome"];
                };
            };
            /** @description Created. */
            201: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Outcome"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getOutcome: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag held by the client: 304 Not Modified while it is current. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description The resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The resource. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Outcome"];
                };
            };
            /** @description Not modified: If-None-Match names the current version. */
            304: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteOutcome: {
        parameters: {
            query?: never;
            header?: {
                /** @description When given, the change happens only at this version (409 version_conflict otherwise). */
                "If-Match"?: components["parameters"]["IfMatchOptional"];
            };
            path: {
                /** @description The resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateOutcome: {
        parameters: {
            query?: never;
            header: {
                /** @description The ETag from a GET of the item (or `*`). Stale: 409 version_conflict with the current ETag. */
                "If-Match": components["parameters"]["IfMatchRequired"];
            };
            path: {
                /** @description The resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OutcomePatch"];
            };
        };
        responses: {
            /** @description The resource after the change. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Outcome"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            428: components["responses"]["PreconditionRequired"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listContextItems: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                createdAfter?: string;
                createdBefore?: string;
                updatedSince?: string;
                outcomeId?: string;
                kind?: "document" | "link" | "note";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContextItemPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createContextItem: {
        parameters: {
            query?: never;
            header: {
                /** @description A client-generated UUID. The same key and request within 24 hours replays the first answer (200, Idempotent-Replayed: true); the same key with another request is a 422. */
                "Idempotency-Key": components["parameters"]["IdempotencyKeyRequired"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ContextItemCreate"];
            };
        };
        responses: {
            /** @description The stored answer of an earlier request with the same Idempotency-Key and the same body. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    /** @description Present (`true`) when the answer is the stored answer of an earlier request with this key. */
                    "Idempotent-Replayed": "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContextItem"];
                };
            };
            /** @description Created. */
            201: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContextItem"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getContextItem: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag held by the client: 304 Not Modified while it is current. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description The resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The resource. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContextItem"];
                };
            };
            /** @description Not modified: If-None-Match names the current version. */
            304: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteContextItem: {
        parameters: {
            query?: never;
            header?: {
                /** @description When given, the change happens only at this version (409 version_conflict otherwise). */
                "If-Match"?: components["parameters"]["IfMatchOptional"];
            };
            path: {
                /** @description The resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listDecisions: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                createdAfter?: string;
                createdBefore?: string;
                updatedSince?: string;
                projectId?: string;
                outcomeId?: string;
                status?: "proposed" | "accepted" | "rejected" | "superseded";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DecisionPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createDecision: {
        parameters: {
            query?: never;
            header: {
                /** @description A client-generated UUID. The same key and request within 24 hours replays the first answer (200, Idempotent-Replayed: true); the same key with another request is a 422. */
                "Idempotency-Key": components["parameters"]["IdempotencyKeyRequired"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DecisionCreate"];
            };
        };
        responses: {
            /** @description The stored answer of an earlier request with the same Idempotency-Key and the same body. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    /** @description Present (`true`) when the answer is the stored answer of an earlier request with this key. */
                    "Idempotent-Replayed": "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Decision"];
                };
            };
            /** @description Created. */
            201: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Decision"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getDecision: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag held by the client: 304 Not Modified while it is current. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description The resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The resource. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Decision"];
                };
            };
            /** @description Not modified: If-None-Match names the current version. */
            304: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateDecision: {
        parameters: {
            query?: never;
            header: {
                /** @description The ETag from a GET of the item (or `*`). Stale: 409 version_conflict with the current ETag. */
                "If-Match": components["parameters"]["IfMatchRequired"];
            };
            path: {
                /** @description The resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DecisionPatch"];
            };
        };
        responses: {
            /** @description The resource after the change. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Decision"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            428: components["responses"]["PreconditionRequired"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listIssues: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                createdAfter?: string;
                createdBefore?: string;
                updatedSince?: string;
                projectId?: string;
                outcomeId?: string;
                status?: "open" | "in_progress" | "blocked" | "resolved" | "closed";
                severity?: "low" | "medium" | "high" | "critical";
                assigneeId?: string;
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssuePage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createIssue: {
        parameters: {
            query?: never;
            header: {
                /** @description A client-generated UUID. The same key and request within 24 hours replays the first answer (200, Idempotent-Replayed: true); the same key with another request is a 422. */
                "Idempotency-Key": components["parameters"]["IdempotencyKeyRequired"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IssueCreate"];
            };
        };
        responses: {
            /** @description The stored answer of an earlier request with the same Idempotency-Key and the same body. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    /** @description Present (`true`) when the answer is the stored answer of an earlier request with this key. */
                    "Idempotent-Replayed": "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Issue"];
                };
            };
            /** @description Created. */
            201: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Issue"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getIssueByIdOrKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag held by the client: 304 Not Modified while it is current. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description The issue's id or its key (APO-12) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The resource. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Issue"];
                };
            };
            /** @description Not modified: If-None-Match names the current version. */
            304: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateIssue: {
        parameters: {
            query?: never;
            header: {
                /** @description The ETag from a GET of the item (or `*`). Stale: 409 version_conflict with the current ETag. */
                "If-Match": components["parameters"]["IfMatchRequired"];
            };
            path: {
                /** @description The issue's id or its key (APO-12) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IssuePatch"];
            };
        };
        responses: {
            /** @description The resource after the change. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Issue"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            428: components["responses"]["PreconditionRequired"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    changeIssueStatus: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional here; when given, a repeat of the same request replays the first answer. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKeyOptional"];
                /** @description When given, the change happens only at this version (409 version_conflict otherwise). */
                "If-Match"?: components["parameters"]["IfMatchOptional"];
            };
            path: {
                /** @description The issue's id or its key (APO-12) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IssueTransition"];
            };
        };
        responses: {
            /** @description Done. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Issue"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listTimeEntries: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                createdAfter?: string;
                createdBefore?: string;
                updatedSince?: string;
                outcomeId?: string;
                issueId?: string;
                userId?: string;
                from?: string;
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TimeEntryPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createTimeEntry: {
        parameters: {
            query?: never;
            header: {
                /** @description A client-generated UUID. The same key and request within 24 hours replays the first answer (200, Idempotent-Replayed: true); the same key with another request is a 422. */
                "Idempotency-Key": components["parameters"]["IdempotencyKeyRequired"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TimeEntryCreate"];
            };
        };
        responses: {
            /** @description The stored answer of an earlier request with the same Idempotency-Key and the same body. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    /** @description Present (`true`) when the answer is the stored answer of an earlier request with this key. */
                    "Idempotent-Replayed": "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TimeEntry"];
                };
            };
            /** @description Created. */
            201: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TimeEntry"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getTimeEntry: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag held by the client: 304 Not Modified while it is current. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description The resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The resource. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TimeEntry"];
                };
            };
            /** @description Not modified: If-None-Match names the current version. */
            304: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteTimeEntry: {
        parameters: {
            query?: never;
            header?: {
                /** @description When given, the change happens only at this version (409 version_conflict otherwise). */
                "If-Match"?: components["parameters"]["IfMatchOptional"];
            };
            path: {
                /** @description The resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateTimeEntry: {
        parameters: {
            query?: never;
            header: {
                /** @description The ETag from a GET of the item (or `*`). Stale: 409 version_conflict with the current ETag. */
                "If-Match": components["parameters"]["IfMatchRequired"];
            };
            path: {
                /** @description The resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TimeEntryPatch"];
            };
        };
        responses: {
            /** @description The resource after the change. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TimeEntry"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            428: components["responses"]["PreconditionRequired"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listMembers: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                role?: "admin" | "member" | "viewer";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createMember: {
        parameters: {
            query?: never;
            header: {
                /** @description A client-generated UUID. The same key and request within 24 hours replays the first answer (200, Idempotent-Replayed: true); the same key with another request is a 422. */
                "Idempotency-Key": components["parameters"]["IdempotencyKeyRequired"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MemberCreate"];
            };
        };
        responses: {
            /** @description The stored answer of an earlier request with the same Idempotency-Key and the same body. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    /** @description Present (`true`) when the answer is the stored answer of an earlier request with this key. */
                    "Idempotent-Replayed": "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            /** @description Created. */
            201: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getMember: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag held by the client: 304 Not Modified while it is current. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description The resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The resource. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            /** @description Not modified: If-None-Match names the current version. */
            304: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteMember: {
        parameters: {
            query?: never;
            header?: {
                /** @description When given, the change happens only at this version (409 version_conflict otherwise). */
                "If-Match"?: components["parameters"]["IfMatchOptional"];
            };
            path: {
                /** @description The resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateMember: {
        parameters: {
            query?: never;
            header: {
                /** @description The ETag from a GET of the item (or `*`). Stale: 409 version_conflict with the current ETag. */
                "If-Match": components["parameters"]["IfMatchRequired"];
            };
            path: {
                /** @description The resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MemberPatch"];
            };
        };
        responses: {
            /** @description The resource after the change. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            428: components["responses"]["PreconditionRequired"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                status?: "active" | "disabled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description A client-generated UUID. The same key and request within 24 hours replays the first answer (200, Idempotent-Replayed: true); the same key with another request is a 422. */
                "Idempotency-Key": components["parameters"]["IdempotencyKeyRequired"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookCreate"];
            };
        };
        responses: {
            /** @description The stored answer of an earlier request with the same Idempotency-Key and the same body. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    /** @description Present (`true`) when the answer is the stored answer of an earlier request with this key. */
                    "Idempotent-Replayed": "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookCreated"];
                };
            };
            /** @description Created. */
            201: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookCreated"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag held by the client: 304 Not Modified while it is current. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description The resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The resource. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Not modified: If-None-Match names the current version. */
            304: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description When given, the change happens only at this version (409 version_conflict otherwise). */
                "If-Match"?: components["parameters"]["IfMatchOptional"];
            };
            path: {
                /** @description The resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The ETag from a GET of the item (or `*`). Stale: 409 version_conflict with the current ETag. */
                "If-Match": components["parameters"]["IfMatchRequired"];
            };
            path: {
                /** @description The resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPatch"];
            };
        };
        responses: {
            /** @description The resource after the change. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The strong entity tag of the resource's version, `"<version>"`; send it back in If-Match. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            428: components["responses"]["PreconditionRequired"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    rotateWebhookSigningSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional here; when given, a repeat of the same request replays the first answer. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKeyOptional"];
                /** @description When given, the change happens only at this version (409 version_conflict otherwise). */
                "If-Match"?: components["parameters"]["IfMatchOptional"];
            };
            path: {
                /** @description The resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookRotated"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    sendSignedTestEvent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional here; when given, a repeat of the same request replays the first answer. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKeyOptional"];
                /** @description When given, the change happens only at this version (409 version_conflict otherwise). */
                "If-Match"?: components["parameters"]["IfMatchOptional"];
            };
            path: {
                /** @description The resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookTestResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getDeliveryWithItsAttempts: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The resource id */
                id: string;
                /** @description The delivery id */
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryDetail"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    redeliverDeliveryNow: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional here; when given, a repeat of the same request replays the first answer. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKeyOptional"];
                /** @description When given, the change happens only at this version (409 version_conflict otherwise). */
                "If-Match"?: components["parameters"]["IfMatchOptional"];
            };
            path: {
                /** @description The resource id */
                id: string;
                /** @description The delivery id */
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    ETag: components["headers"]["ETag"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    countWebhookAttemptsPerHour: {
        parameters: {
            query?: {
                hours?: number;
            };
            header?: never;
            path: {
                /** @description The resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryStats"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listOrStreamAccountSignalEvents: {
        parameters: {
            query?: {
                after?: number;
                cursor?: string;
                types?: string | string[];
                resourceId?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of events in ascending sequence order; with `Accept: text/event-stream`, the events as server-sent events, live. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignalPage"];
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document. */
            200: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description A digest of the document: send it as If-None-Match to revalidate. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Not modified: If-None-Match names the served document. */
            304: {
                headers: {
                    /** @description The request's id: the client's X-Request-Id when it sent a sane one. Quote it when reporting errors. */
                    "X-Request-Id": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description A digest of the document: send it as If-None-Match to revalidate. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is alive. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                    };
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Storage answers; the process can serve requests. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ready";
                    };
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    projectCreatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; during a secret rotation a second `v1` signed with the old secret follows. */
                "X-Service-Signature": string;
                /** @description The event id: the same on every retry of this event. */
                "X-Service-Event-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProjectCreatedEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx answer within 10 seconds. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in 10 s) is retried about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h later; 410 disables the subscription. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    projectUpdatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; during a secret rotation a second `v1` signed with the old secret follows. */
                "X-Service-Signature": string;
                /** @description The event id: the same on every retry of this event. */
                "X-Service-Event-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProjectUpdatedEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx answer within 10 seconds. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in 10 s) is retried about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h later; 410 disables the subscription. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    outcomeCreatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; during a secret rotation a second `v1` signed with the old secret follows. */
                "X-Service-Signature": string;
                /** @description The event id: the same on every retry of this event. */
                "X-Service-Event-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OutcomeCreatedEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx answer within 10 seconds. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in 10 s) is retried about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h later; 410 disables the subscription. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    outcomeUpdatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; during a secret rotation a second `v1` signed with the old secret follows. */
                "X-Service-Signature": string;
                /** @description The event id: the same on every retry of this event. */
                "X-Service-Event-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OutcomeUpdatedEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx answer within 10 seconds. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in 10 s) is retried about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h later; 410 disables the subscription. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    outcomeDeletedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; during a secret rotation a second `v1` signed with the old secret follows. */
                "X-Service-Signature": string;
                /** @description The event id: the same on every retry of this event. */
                "X-Service-Event-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OutcomeDeletedEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx answer within 10 seconds. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in 10 s) is retried about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h later; 410 disables the subscription. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    outcomeShippedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; during a secret rotation a second `v1` signed with the old secret follows. */
                "X-Service-Signature": string;
                /** @description The event id: the same on every retry of this event. */
                "X-Service-Event-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OutcomeShippedEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx answer within 10 seconds. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in 10 s) is retried about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h later; 410 disables the subscription. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    contextCreatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; during a secret rotation a second `v1` signed with the old secret follows. */
                "X-Service-Signature": string;
                /** @description The event id: the same on every retry of this event. */
                "X-Service-Event-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ContextCreatedEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx answer within 10 seconds. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in 10 s) is retried about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h later; 410 disables the subscription. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    contextDeletedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; during a secret rotation a second `v1` signed with the old secret follows. */
                "X-Service-Signature": string;
                /** @description The event id: the same on every retry of this event. */
                "X-Service-Event-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ContextDeletedEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx answer within 10 seconds. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in 10 s) is retried about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h later; 410 disables the subscription. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    decisionCreatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; during a secret rotation a second `v1` signed with the old secret follows. */
                "X-Service-Signature": string;
                /** @description The event id: the same on every retry of this event. */
                "X-Service-Event-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DecisionCreatedEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx answer within 10 seconds. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in 10 s) is retried about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h later; 410 disables the subscription. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    decisionUpdatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; during a secret rotation a second `v1` signed with the old secret follows. */
                "X-Service-Signature": string;
                /** @description The event id: the same on every retry of this event. */
                "X-Service-Event-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DecisionUpdatedEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx answer within 10 seconds. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in 10 s) is retried about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h later; 410 disables the subscription. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    issueCreatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; during a secret rotation a second `v1` signed with the old secret follows. */
                "X-Service-Signature": string;
                /** @description The event id: the same on every retry of this event. */
                "X-Service-Event-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IssueCreatedEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx answer within 10 seconds. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in 10 s) is retried about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h later; 410 disables the subscription. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    issueUpdatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; during a secret rotation a second `v1` signed with the old secret follows. */
                "X-Service-Signature": string;
                /** @description The event id: the same on every retry of this event. */
                "X-Service-Event-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IssueUpdatedEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx answer within 10 seconds. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in 10 s) is retried about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h later; 410 disables the subscription. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    issueStatusChangedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; during a secret rotation a second `v1` signed with the old secret follows. */
                "X-Service-Signature": string;
                /** @description The event id: the same on every retry of this event. */
                "X-Service-Event-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IssueStatusChangedEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx answer within 10 seconds. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in 10 s) is retried about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h later; 410 disables the subscription. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    timeEntryCreatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; during a secret rotation a second `v1` signed with the old secret follows. */
                "X-Service-Signature": string;
                /** @description The event id: the same on every retry of this event. */
                "X-Service-Event-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TimeEntryCreatedEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx answer within 10 seconds. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in 10 s) is retried about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h later; 410 disables the subscription. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    timeEntryUpdatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; during a secret rotation a second `v1` signed with the old secret follows. */
                "X-Service-Signature": string;
                /** @description The event id: the same on every retry of this event. */
                "X-Service-Event-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TimeEntryUpdatedEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx answer within 10 seconds. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in 10 s) is retried about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h later; 410 disables the subscription. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    timeEntryDeletedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; during a secret rotation a second `v1` signed with the old secret follows. */
                "X-Service-Signature": string;
                /** @description The event id: the same on every retry of this event. */
                "X-Service-Event-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TimeEntryDeletedEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx answer within 10 seconds. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in 10 s) is retried about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h later; 410 disables the subscription. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    memberCreatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; during a secret rotation a second `v1` signed with the old secret follows. */
                "X-Service-Signature": string;
                /** @description The event id: the same on every retry of this event. */
                "X-Service-Event-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MemberCreatedEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx answer within 10 seconds. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in 10 s) is retried about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h later; 410 disables the subscription. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    memberUpdatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; during a secret rotation a second `v1` signed with the old secret follows. */
                "X-Service-Signature": string;
                /** @description The event id: the same on every retry of this event. */
                "X-Service-Event-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MemberUpdatedEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx answer within 10 seconds. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in 10 s) is retried about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h later; 410 disables the subscription. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    memberDeletedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; during a secret rotation a second `v1` signed with the old secret follows. */
                "X-Service-Signature": string;
                /** @description The event id: the same on every retry of this event. */
                "X-Service-Event-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MemberDeletedEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx answer within 10 seconds. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in 10 s) is retried about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h later; 410 disables the subscription. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookCreatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; during a secret rotation a second `v1` signed with the old secret follows. */
                "X-Service-Signature": string;
                /** @description The event id: the same on every retry of this event. */
                "X-Service-Event-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookCreatedEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx answer within 10 seconds. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in 10 s) is retried about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h later; 410 disables the subscription. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookUpdatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; during a secret rotation a second `v1` signed with the old secret follows. */
                "X-Service-Signature": string;
                /** @description The event id: the same on every retry of this event. */
                "X-Service-Event-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookUpdatedEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx answer within 10 seconds. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in 10 s) is retried about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h later; 410 disables the subscription. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookDeletedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; during a secret rotation a second `v1` signed with the old secret follows. */
                "X-Service-Signature": string;
                /** @description The event id: the same on every retry of this event. */
                "X-Service-Event-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookDeletedEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx answer within 10 seconds. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in 10 s) is retried about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h later; 410 disables the subscription. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookTestEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; during a secret rotation a second `v1` signed with the old secret follows. */
                "X-Service-Signature": string;
                /** @description The event id: the same on every retry of this event. */
                "X-Service-Event-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookTestEvent"];
            };
        };
        responses: {
            /** @description Delivered: any 2xx answer within 10 seconds. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in 10 s) is retried about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h later; 410 disables the subscription. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
