import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.js';

/** The queries several screens share (one cache key each, so a payment refreshes them all). */
export const useBankAccounts = () =>
  useQuery({ queryKey: ['bank-accounts'], queryFn: async () => unwrap(await api.GET('/api/bank-accounts')) });

export const useRates = () =>
  useQuery({ queryKey: ['rates'], queryFn: async () => unwrap(await api.GET('/api/rates')).data, staleTime: 300_000 });

export const useNotifications = () =>
  useQuery({ queryKey: ['notifications'], queryFn: async () => unwrap(await api.GET('/api/notifications')).data });

export const useRecipients = () =>
  useQuery({
    queryKey: ['recipients'],
    queryFn: async () => unwrap(await api.GET('/api/recipients', { params: { query: { limit: 50 } } })).data,
  });

/** After a payment: balances, history and notifications change. */
export const PAYMENT_KEYS = [['bank-accounts'], ['transactions'], ['notifications'], ['merchant-dashboard']];
