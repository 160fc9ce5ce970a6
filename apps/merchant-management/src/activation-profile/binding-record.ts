/** A binding with its methods, grouped per (acquirerProfileId, currency). */
export interface BindingRecord {
  bindingId: number;
  merchantUuid: string;
  acquirerProfileId: number;
  profileName: string;
  acqType: string;
  currency: string;
  mid: string | null;
  /** The acquirer profile's connection, as the activation profile needs it. */
  connMessageFormat: string;
  enablerMsgFormat: string | null;
  enablerParams: string | null;
  connUrl: string | null;
  /** The acquirer profile's connExtraParams (its `acqInstId` and `subMchDba` reach the gateway). */
  connExtraParams: Record<string, unknown> | null;
  methods: { paymentMethodCode: string; allows: string[]; emvs: { emvId: number; emvName: string; aid: string | null }[] }[];
}

/**
 * SQL expression: the bindings of merchant row `m` as a JSON array of {@link BindingRecord}, so a
 * merchant and its payment summary come back in one round trip.
 */
export const BINDINGS_JSON_OF_MERCHANT = `COALESCE((
  SELECT json_agg(json_build_object(
           'bindingId', b.id, 'merchantUuid', b.merchant_uuid, 'acquirerProfileId', b.acquirer_profile_id,
           'profileName', a.profile_name, 'acqType', a.acq_type, 'currency', b.currency, 'mid', b.mid,
           'connMessageFormat', a.conn_message_format, 'enablerMsgFormat', a.enabler_msg_format,
           'enablerParams', a.enabler_params, 'connUrl', a.conn_url, 'connExtraParams', a.conn_extra_params,
           'methods', COALESCE((
             SELECT json_agg(json_build_object(
                      'paymentMethodCode', pm.payment_method_code, 'allows', pm.allows,
                      'emvs', COALESCE((
                        SELECT json_agg(json_build_object('emvId', e.emv_id, 'emvName', c.emv_name, 'aid', c.aid) ORDER BY e.position)
                          FROM payment_method_emv e JOIN emv_config c ON c.id = e.emv_id
                         WHERE e.method_id = pm.id), '[]'::json))
                    ORDER BY pm.payment_method_code)
               FROM payment_method_binding pm WHERE pm.binding_id = b.id), '[]'::json))
         ORDER BY b.id)
    FROM payment_binding b JOIN acquirer_profile a ON a.id = b.acquirer_profile_id
   WHERE b.merchant_uuid = m.uuid), '[]'::json)`;
