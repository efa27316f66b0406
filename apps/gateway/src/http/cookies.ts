import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../auth/session-cookie';

/** Session cookie flags: HttpOnly, SameSite=Lax, Secure under HTTPS; persistent only with "remember me". */
export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  value: string,
  expiresAt: Date,
  remember: boolean,
): void {
  reply.setCookie(SESSION_COOKIE, value, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    ...(remember ? { expires: expiresAt } : {}),
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
  });
}
